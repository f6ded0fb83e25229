package server

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/assent-sh/assent/exec"
	"github.com/assent-sh/assent/queue"
	"github.com/assent-sh/assent/queue/queuetest"
	"github.com/assent-sh/assent/server/servertest"
)

// BenchmarkCallTool measures one auto-approved call through the
// in-process client: with the fake runner it is everything assent adds
// (MCP decoding and encoding, expansion, policy, four journal records in
// two writes, events); with the real runner it adds running uname.
func BenchmarkCallTool(b *testing.B) {
	for _, tc := range []struct {
		name  string
		local bool
	}{{"fake-runner", false}, {"real-runner", true}} {
		b.Run(tc.name, func(b *testing.B) {
			var change func(o *queue.Options)
			if tc.local {
				change = func(o *queue.Options) { o.Runner = exec.NewLocal(exec.Options{}) }
			}
			f := newFixture(b, change)
			f.Runner.Expect("uname", "s").Repeat = true
			c := f.inProcess(nil, nil)
			ctx := context.Background()
			args := map[string]any{"what_thing": "s"}
			for b.Loop() {
				res, err := servertest.Call(ctx, c, "look", args, "")
				if err != nil || res.IsError {
					b.Fatalf("%v %+v", err, res)
				}
			}
		})
	}
}

// BenchmarkStdio measures one auto-approved call over a line connection,
// with the fake runner: what the stdio transport, the MCP handling and the
// queue add to a call, without the program.
func BenchmarkStdio(b *testing.B) {
	f := newFixture(b, nil)
	f.Runner.Expect("uname", "s").Repeat = true
	l := f.rawStdio(b)
	l.Send(servertest.Initialize("bench") + "\n" + servertest.Initialized)
	if resp, _ := l.Response("1"); resp == "" {
		b.Fatal("no answer to initialize")
	}
	n := 1
	for b.Loop() {
		n++
		id := strconv.Itoa(n)
		l.Send(`{"jsonrpc":"2.0","id":` + id + `,"method":"tools/call","params":{"name":"look","arguments":{"what_thing":"s"}}}`)
		if resp, _ := l.Response(id); !strings.Contains(resp, `"exitCode":0`) {
			b.Fatalf("answer %s", resp)
		}
	}
}

// BenchmarkNew200 builds a server offering 200 tools and answers
// tools/list once, as a stdio start does before its first answer: New
// encodes the list on another core, and listTools answers with it.
func BenchmarkNew200(b *testing.B) {
	f := queuetest.New(b, queuetest.Options{Tools: servertest.ManyTools(200)})
	list := []byte(`{"jsonrpc":"2.0","id":1,"method":"tools/list"}`)
	for b.Loop() {
		s, err := New(f.Config(), Options{Queue: f.Queue})
		if err != nil {
			b.Fatal(err)
		}
		if resp, ok := s.listTools(parseMessage(list)); !ok || !bytes.Contains(resp, []byte(`"tool_199"`)) {
			b.Fatalf("no list of 200 tools: %.200s", resp)
		}
	}
}

// BenchmarkDecodeCallParams decodes a call's params as mcp-go's
// UnmarshalJSON does and as callTool does, in one pass.
func BenchmarkDecodeCallParams(b *testing.B) {
	params := json.RawMessage(`{"name":"grep_search","arguments":{"pattern":"TODO","path":"./src","max_count":20}}`)
	b.Run("mcp-go", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			var p mcp.CallToolParams
			if err := json.Unmarshal(params, &p); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("one-pass", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, ok := decodeCallParams(params); !ok {
				b.Fatal("not decoded")
			}
		}
	})
}

// BenchmarkHTTPHandler measures one auto-approved tools/call through the
// HTTP handlers (guard, conduct, the direct call) with the fake runner,
// without net/http's connection: what assent's HTTP layer adds to a call
// beside the queue's share, which BenchmarkSubmit measures.
func BenchmarkHTTPHandler(b *testing.B) {
	f := newFixture(b, nil)
	f.Runner.Expect("uname", "s").Repeat = true
	h, err := f.s.ListenHTTP(HTTPOptions{Addr: "127.0.0.1:0", Token: testToken})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { h.ln.Close() })
	post := func(body, session string) *httptest.ResponseRecorder {
		req := httptest.NewRequest(http.MethodPost, h.URL(), strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		req.Header.Set("Authorization", "Bearer "+testToken)
		if session != "" {
			req.Header.Set(mcp.HeaderSessionID, session)
			req.Header.Set(mcp.HeaderProtocolVersion, "2025-11-25")
		}
		rec := httptest.NewRecorder()
		h.srv.handler.ServeHTTP(rec, req)
		return rec
	}
	init := post(servertest.Initialize("bench"), "")
	session := init.Header().Get(mcp.HeaderSessionID)
	if init.Code != http.StatusOK || session == "" {
		b.Fatalf("initialize: %d %s", init.Code, init.Body)
	}
	call := `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"look","arguments":{"what_thing":"s"}}}`
	b.ReportAllocs()
	for b.Loop() {
		if rec := post(call, session); rec.Code != http.StatusOK || !strings.Contains(rec.Body.String(), `"exitCode":0`) {
			b.Fatalf("answer %d %s", rec.Code, rec.Body)
		}
	}
}
