package server

import (
	"context"
	"encoding/json"
	"maps"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"testing"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/assent-sh/assent/queue"
	"github.com/assent-sh/assent/queue/queuetest"
)

// durations are the parts of an answer that differ from run to run.
var durations = regexp.MustCompile(`"durationMs":\d+|· [^\]]*\]`)

// TestCallTool_AnswersAsMCPGo: the direct path answers a tools/call of the
// initialize era byte for byte as mcp-go's dispatch does, and leaves every
// other request to mcp-go.
func TestCallTool_AnswersAsMCPGo(t *testing.T) {
	f := newFixture(t, nil)
	f.Runner.Expect("uname", "s").Stdout("Linux\n").Repeat = true
	ctx := f.s.MCP().WithContext(context.Background(), newLineSession("direct", f.s.registered))
	answer := func(line string) (direct, viaMCP string, ok bool) {
		m := parseMessage([]byte(line))
		d, ok := f.s.callTool(ctx, m, true)
		v, err := json.Marshal(f.s.MCP().HandleMessage(ctx, []byte(line)))
		if err != nil {
			t.Fatal(err)
		}
		return durations.ReplaceAllString(string(d), ""), durations.ReplaceAllString(string(v), ""), ok
	}
	call := func(params string) string {
		return `{"jsonrpc":"2.0","id":7,"method":"tools/call","params":` + params + `}`
	}
	withID := func(id string) string {
		return strings.Replace(call(`{"name":"look","arguments":{"what_thing":"s"}}`), `"id":7`, `"id":`+id, 1)
	}
	// A tool whose handler panics, on both paths.
	boom := recovered("boom", func(context.Context, mcp.CallToolRequest) (*mcp.CallToolResult, error) { panic("boom") })
	f.s.MCP().AddTool(mcp.NewTool("boom"), boom)
	set := *f.s.tools.Load()
	set.handlers = maps.Clone(set.handlers)
	set.handlers["boom"] = boom
	f.s.tools.Store(&set)
	for _, tc := range []struct {
		name, line string
		direct     bool
	}{
		{"a call", call(`{"name":"look","arguments":{"what_thing":"s"}}`), true},
		{"with _meta", call(`{"name":"look","arguments":{"what_thing":"s"},"_meta":{"progressToken":"p"}}`), true},
		{"arguments not an object", call(`{"name":"look","arguments":[1]}`), true},
		{"arguments null", call(`{"name":"look","arguments":null}`), true},
		{"arguments twice", call(`{"name":"look","arguments":{"what_thing":"x"},"arguments":{"what_thing":"s"}}`), true},
		{"arguments, then null", call(`{"name":"look","arguments":{"what_thing":"s"},"arguments":null}`), true},
		{"members in another case", call(`{"NAME":"look","Arguments":{"what_thing":"s"}}`), true},
		{"a task", call(`{"name":"look","arguments":{"what_thing":"s"},"task":{"ttl":1000}}`), true},
		{"a task mcp-go cannot decode", call(`{"name":"look","arguments":{"what_thing":"s"},"task":5}`), false},
		{"input responses mcp-go cannot decode", call(`{"name":"look","arguments":{"what_thing":"s"},"inputResponses":[]}`), false},
		{"a name that is not a string", call(`{"name":7,"arguments":{}}`), false},
		{"a string id", withID(`"x7"`), true},
		{"an id with a fraction of zero", withID(`1.0`), true},
		{"an id with an exponent", withID(`1e2`), true},
		{"an id past float64's integers", withID(`12345678901234567890`), true},
		{"a negative id", withID(`-3`), true},
		{"an id with escapes", withID(`"\u0041<b"`), true},
		{"a handler that panics", call(`{"name":"boom","arguments":{}}`), true},
		{"unknown tool", call(`{"name":"nope","arguments":{}}`), false},
		{"params not an object", call(`"look"`), false},
		{"modern era", call(`{"name":"look","arguments":{"what_thing":"s"},"_meta":{"` + mcp.MetaKeyProtocolVersion + `":"2026-07-28","` + mcp.MetaKeyClientCapabilities + `":{}}}`), false},
		{"not a call", `{"jsonrpc":"2.0","id":7,"method":"tools/list"}`, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			direct, viaMCP, ok := answer(tc.line)
			if ok != tc.direct {
				t.Fatalf("served directly: %v, want %v", ok, tc.direct)
			}
			if ok && direct != viaMCP {
				t.Fatalf("direct answer\n%s\nmcp-go's\n%s", direct, viaMCP)
			}
		})
	}
}

// TestRecovered_PanicIsAnError: a handler's panic becomes the error that
// names the tool, as mcp-go's recovery said, and the server goes on.
func TestRecovered_PanicIsAnError(t *testing.T) {
	h := recovered("look", func(context.Context, mcp.CallToolRequest) (*mcp.CallToolResult, error) { panic("boom") })
	res, err := h(context.Background(), mcp.CallToolRequest{})
	if res != nil || err == nil || err.Error() != "panic recovered in look tool handler: boom" {
		t.Fatalf("got %v, %v", res, err)
	}
}

// TestListTools_AnswersAsMCPGo: tools/list of the initialize era is
// answered from the stored list, byte for byte as mcp-go answers it, also
// after the tool set changes; a cursor or the 2026-07-28 era goes to mcp-go.
func TestListTools_AnswersAsMCPGo(t *testing.T) {
	f := newFixture(t, nil)
	ctx := context.Background()
	list := func(params string) string {
		return `{"jsonrpc":"2.0","id":5,"method":"tools/list"` + params + `}`
	}
	modern := `,"params":{"_meta":{"` + mcp.MetaKeyProtocolVersion + `":"2026-07-28","` + mcp.MetaKeyClientCapabilities + `":{}}}`
	for round, tools := range []string{testTools, `{"tools": [{"name": "only", "description": "d", "command": "uname"}]}`,
		`{"tools": [{"name": "z", "description": "<b> & \"q\" é", "command": "uname -- {what}", "read_only": true},
			{"name": "a", "command": "uname"}]}`} {
		if round > 0 {
			f.s.SetTools(f.LoadTools(tools).Config)
		}
		for _, tc := range []struct {
			name, line string
			direct     bool
		}{
			{"no params", list(""), true},
			{"empty params", list(`,"params":{}`), true},
			{"with _meta", list(`,"params":{"_meta":{"progressToken":1}}`), true},
			{"a cursor", list(`,"params":{"cursor":"x"}`), false},
			{"modern era", list(modern), false},
		} {
			t.Run(tc.name, func(t *testing.T) {
				direct, ok := f.s.listTools(parseMessage([]byte(tc.line)))
				if ok != tc.direct {
					t.Fatalf("served directly: %v, want %v", ok, tc.direct)
				}
				viaMCP, err := json.Marshal(f.s.MCP().HandleMessage(ctx, []byte(tc.line)))
				if err != nil {
					t.Fatal(err)
				}
				if ok && string(direct) != string(viaMCP) {
					t.Fatalf("direct answer\n%s\nmcp-go's\n%s", direct, viaMCP)
				}
				if ok && !strings.Contains(string(direct), `"name":"`+f.s.Config().Tools[0].Name+`"`) {
					t.Fatalf("the answer does not list the tool set in force: %.300s", direct)
				}
			})
		}
	}
}

// TestHTTP_DirectCallAnswersAsMCPGo: a legacy tools/call over HTTP, which
// conduct answers itself (TestConduct_Direct…), gets the body mcp-go's
// transport writes (its JSON-RPC answer, encoded, and a newline), and the
// call carries the client's name from initialize.
func TestHTTP_DirectCallAnswersAsMCPGo(t *testing.T) {
	f := newFixture(t, nil)
	f.Runner.Expect("uname", "s").Stdout("Linux\n").Repeat = true
	x := f.rawHTTP(HTTPOptions{})
	sid := x.initialize()
	line := `{"jsonrpc":"2.0","id":1.0,"method":"tools/call","params":{"name":"look","arguments":{"what_thing":"s"}}}`
	status, h, body := x.do(http.MethodPost, sid, line, map[string]string{"MCP-Protocol-Version": "2025-11-25"})
	ctx := f.s.MCP().WithContext(context.Background(), newLineSession("direct", f.s.registered))
	want, err := json.Marshal(f.s.MCP().HandleMessage(ctx, []byte(line)))
	if err != nil {
		t.Fatal(err)
	}
	if status != http.StatusOK || h.Get("Content-Type") != "application/json" ||
		durations.ReplaceAllString(body, "") != durations.ReplaceAllString(string(want)+"\n", "") {
		t.Errorf("direct answer: %d %q\n%s\nmcp-go's\n%s", status, h.Get("Content-Type"), body, want)
	}
	if c, ok := queuetest.WaitFor(f.Queue, func(c queue.Call) bool { return c.Tool == "look" }); !ok || c.Client != "raw" || c.Session != sid {
		t.Errorf("the call's client %q, session %q; want raw, %s", c.Client, c.Session, sid)
	}
}

// A _meta member is found as encoding/json finds it, whatever its letter
// case or escapes, though params without one are not decoded twice.
func TestParseMessage_MetaAsEncodingJSONReadsIt(t *testing.T) {
	const v = `{"io.modelcontextprotocol/protocolVersion":"2026-07-28"}`
	for _, key := range []string{"_meta", "_META", `\u005fmeta`} {
		m := parseMessage([]byte(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"x","` + key + `":` + v + `}}`))
		if m.metaVersion != "2026-07-28" {
			t.Errorf("params with %s: protocol version %q", key, m.metaVersion)
		}
	}
	if m := parseMessage([]byte(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"x"}}`)); m.metaVersion != "" {
		t.Errorf("params without _meta: protocol version %q", m.metaVersion)
	}
}

// TestConduct_DirectAnswersWhatMCPGoWouldAnswerAsJSON: conduct answers a
// legacy tools/call itself, as the session's client, and leaves to mcp-go
// a call with a progress token, a protocol version it refuses, and every
// other method.
func TestConduct_DirectAnswersWhatMCPGoWouldAnswerAsJSON(t *testing.T) {
	f := newFixture(t, nil)
	f.Runner.Expect("uname", "s").Stdout("Linux\n").Repeat = true
	c := &conduct{s: f.s}
	call := func(meta string) message {
		return parseMessage([]byte(`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"look","arguments":{"what_thing":"s"}` + meta + `}}`))
	}
	plain := httptest.NewRequest(http.MethodPost, EndpointPath, nil)
	refused := httptest.NewRequest(http.MethodPost, EndpointPath, nil)
	refused.Header.Set(mcp.HeaderProtocolVersion, "1999-01-01")
	for _, tc := range []struct {
		name string
		r    *http.Request
		m    message
		want bool
	}{
		{"a call", plain, call(""), true},
		{"a call with _meta but no token", plain, call(`,"_meta":{}`), true},
		{"a call with a progress token", plain, call(`,"_meta":{"progressToken":"p"}`), false},
		{"a protocol version mcp-go refuses", refused, call(""), false},
		{"another method", plain, parseMessage([]byte(`{"jsonrpc":"2.0","id":3,"method":"tools/list"}`)), false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if _, ok := c.direct(context.Background(), tc.r, "s1", "who", tc.m); ok != tc.want {
				t.Errorf("answered directly: %v, want %v", ok, tc.want)
			}
		})
	}
	if got, ok := queuetest.WaitFor(f.Queue, func(c queue.Call) bool { return c.Tool == "look" }); !ok || got.Client != "who" || got.Session != "s1" {
		t.Errorf("the direct call's client %q, session %q; want who, s1", got.Client, got.Session)
	}
}

// An initialize whose params mcp-go cannot read still gets a session from
// it, but records no client: both paths then name the call's client alike.
func TestHTTP_InitializeMCPGoCannotReadNamesNoClient(t *testing.T) {
	f := newFixture(t, nil)
	f.Runner.Expect("uname", "s").Stdout("Linux\n").Repeat = true
	x := f.rawHTTP(HTTPOptions{})
	status, h, body := x.do(http.MethodPost, "", `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25",`+
		`"capabilities":{},"clientInfo":{"name":"claimed","version":5}}}`, nil)
	sid := h.Get("Mcp-Session-Id")
	if sid == "" {
		t.Skipf("mcp-go issued no session for such params (%d %s)", status, body)
	}
	x.do(http.MethodPost, sid, `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"look","arguments":{"what_thing":"s"}}}`,
		map[string]string{"MCP-Protocol-Version": "2025-11-25"})
	if c, ok := queuetest.WaitFor(f.Queue, func(c queue.Call) bool { return c.Tool == "look" }); !ok || c.Client != "" {
		t.Errorf("the call's client %q; want none, as mcp-go recorded none", c.Client)
	}
}

// A response is made in one allocation, with room for the newline a line
// transport appends: a tools/list answer runs to a hundred kilobytes, and
// each copy of it costs fresh memory. It used to take two: the buffer was
// a byte short, and grew at the closing brace.
func TestResultResponse_OneAllocationWithRoomForTheNewline(t *testing.T) {
	result := []byte(`{"tools":[` + strings.Repeat(`{"name":"x"},`, 8000) + `{"name":"y"}]}`)
	id := json.RawMessage(`"an id"`)
	var line []byte
	allocs := testing.AllocsPerRun(20, func() { line = append(resultResponse(id, result), '\n') })
	if want := `{"jsonrpc":"2.0","id":"an id","result":` + string(result) + "}\n"; string(line) != want {
		t.Fatalf("response:\n%.200s\nwant:\n%.200s", line, want)
	}
	if allocs != 1 {
		t.Errorf("a response and its newline took %v allocations, want 1", allocs)
	}
}
