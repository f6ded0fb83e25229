package server

import (
	"bytes"
	"encoding/json"
	"slices"
	"testing"

	"github.com/mark3labs/mcp-go/mcp"
	mcpserver "github.com/mark3labs/mcp-go/server"

	"github.com/assent-sh/assent/config"
	"github.com/assent-sh/assent/examples"
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

// TestMCPTool_SchemaIsAsJSONMarshalWritesIt holds each tool's input schema,
// for the default pack and for parameters of every type, with defaults and
// bounds of every kind of number, to what json.Marshal makes of it: the
// same bytes, so encodeTools may copy it as mcp-go's encoding would.
// (config holds the schema to the document it describes.)
func TestMCPTool_SchemaIsAsJSONMarshalWritesIt(t *testing.T) {
	f := newFixture(t, nil)
	var tools []*config.Tool
	for _, text := range []string{string(examples.DefaultPack()), `{"settings": {"system_command": {"allow": ["uname"], "env": ["TZ"]}},
	  "tools": [{"name": "t", "description": "<all> & \"kinds\"", "command": ["uname", "{s}", "{i}", "{n}", "{b}", "{e}", "{l...}", "{p}"],
	  "params": {
	    "s": {"type": "string", "pattern": "[a-z<>&]+", "max_length": 10, "default": "a<b>", "description": "é \u2028"},
	    "i": {"type": "integer", "min": -5, "max": 1e3, "default": 7},
	    "n": {"type": "number", "min": -1e21, "max": 0.000000125, "default": -0.5e-7},
	    "b": {"type": "boolean", "default": false},
	    "e": {"type": "enum", "enum": ["fast", "-s", "slow"], "default": "fast"},
	    "l": {"type": "string", "required": false, "multiline": true},
	    "p": {"type": "path", "default": "."}
	  }}]}`} {
		tools = append(tools, f.LoadTools(text).Config.Tools...)
	}
	if len(tools) < 10 {
		t.Fatalf("only %d tools loaded", len(tools))
	}
	for _, ct := range tools {
		want, err := json.Marshal(ct.InputSchema())
		if err != nil {
			t.Fatal(err)
		}
		if got := mcpTool(ct).RawInputSchema; !bytes.Equal(got, want) {
			t.Errorf("tool %s: schema\n%s\njson.Marshal\n%s", ct.Name, got, want)
		}
	}
}
