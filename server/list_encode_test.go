package server

import (
	"bytes"
	"encoding/json"
	"slices"
	"testing"

	"github.com/mark3labs/mcp-go/mcp"
	mcpserver "github.com/mark3labs/mcp-go/server"
)

func TestOutputSchema_IsAsJSONMarshalCopiesIt(t *testing.T) {
	var buf bytes.Buffer
	if err := json.Compact(&buf, []byte(outputSchema)); err != nil || buf.String() != outputSchema {
		t.Fatalf("outputSchema is not compact JSON (%v)", err)
	}
	if b, _ := json.Marshal(json.RawMessage(outputSchema)); string(b) != outputSchema {
		t.Fatalf("json.Marshal changes outputSchema to %s", b)
	}
}

func TestEncodeTools_AsMCPGoOrNotAtAll(t *testing.T) {
	f := newFixture(t, nil)
	var tools []mcpserver.ServerTool
	for _, ct := range f.LoadTools(`{"tools": [{"name": "z", "description": "<b> & \"q\" é", "command": "uname -- {what}", "read_only": true},
		{"name": "a", "command": "uname"}, {"name": "m", "description": "m", "command": "uname -s"}]}`).Config.Tools {
		tools = append(tools, mcpserver.ServerTool{Tool: mcpTool(ct)})
	}
	got, ok := encodeTools(tools)
	if !ok {
		t.Fatal("the server's own tools are not written by hand")
	}
	sorted := []mcp.Tool{tools[1].Tool, tools[2].Tool, tools[0].Tool}
	if want, _ := json.Marshal(mcp.ListToolsResult{Tools: sorted}); string(got) != string(want) {
		t.Fatalf("encodeTools\n%s\njson.Marshal\n%s", got, want)
	}
	for name, change := range map[string]func(*mcp.Tool){
		"a title":             func(t *mcp.Tool) { t.Title = "T" },
		"_meta":               func(t *mcp.Tool) { t.Meta = &mcp.Meta{} },
		"a structured schema": func(t *mcp.Tool) { t.RawInputSchema = nil },
		"an empty schema":     func(t *mcp.Tool) { t.RawInputSchema = json.RawMessage{} },
		"no output schema":    func(t *mcp.Tool) { t.RawOutputSchema = nil },
		"both input schemas":  func(t *mcp.Tool) { t.InputSchema.Type = "object" },
		"both output schemas": func(t *mcp.Tool) { t.OutputSchema.Type = "object" },
		"icons":               func(t *mcp.Tool) { t.Icons = []mcp.Icon{{Src: "https://x/i.png"}} },
		"execution":           func(t *mcp.Tool) { t.Execution = &mcp.ToolExecution{} },
		"deferred loading":    func(t *mcp.Tool) { t.DeferLoading = true },
		"a name twice":        func(t *mcp.Tool) { t.Name = "a" },
	} {
		changed := slices.Clone(tools)
		change(&changed[0].Tool)
		if _, ok := encodeTools(changed); ok {
			t.Errorf("with %s, encodeTools wrote the list, which mcp-go would write otherwise", name)
		}
	}
}
