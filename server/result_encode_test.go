package server

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/assent-sh/assent/exec"
	"github.com/assent-sh/assent/queue"
)

// sameAsMarshal fails t unless encodeResult writes res as json.Marshal does.
func sameAsMarshal(t testing.TB, res *mcp.CallToolResult) {
	t.Helper()
	got, err := encodeResult(res)
	if err != nil {
		t.Fatal(err)
	}
	want, err := json.Marshal(res)
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != string(want) {
		t.Fatalf("encodeResult\n%s\njson.Marshal\n%s", got, want)
	}
}

func TestEncodeResult_AsJSONMarshal(t *testing.T) {
	ran := func(ending queue.Ending, r exec.Result, edited bool) *mcp.CallToolResult {
		c := queue.Call{Ending: ending, Started: time.Now(), Command: exec.Command{Path: "/bin/echo", Argv: []string{"echo", "<b>&"}}}
		if edited {
			c.Original = &exec.Command{Path: "/bin/echo", Argv: []string{"echo", "a\u2028b"}}
		}
		return ranResult(c, r)
	}
	out := func(s string) exec.Output { return exec.Output{Data: []byte(s), Bytes: int64(len(s))} }
	for name, res := range map[string]*mcp.CallToolResult{
		"exited":              ran(queue.Exited, exec.Result{Stdout: out("hello\n"), Duration: 3 * time.Millisecond}, false),
		"escapes":             ran(queue.Exited, exec.Result{Stdout: out("<a href=\"x\">&amp;</a>\t\x01\xff \u2029"), Stderr: out("é\\")}, false),
		"edited":              ran(queue.Exited, exec.Result{ExitCode: 2}, true),
		"signalled":           ran(queue.TimedOut, exec.Result{ExitCode: 137, Signal: "SIGKILL", TimedOut: true}, false),
		"truncated":           ran(queue.Exited, exec.Result{Stdout: exec.Output{Data: []byte("ab"), Bytes: 9, Truncated: true}}, false),
		"not started":         ran(queue.NotStarted, exec.Result{}, false),
		"a tool error":        mcp.NewToolResultError("denied by the operator: <no> & \"never\""),
		"no content":          {},
		"two texts":           {Content: []mcp.Content{mcp.NewTextContent("a"), mcp.NewTextContent("b")}},
		"edited, nil argv":    {StructuredContent: callResult{Edited: &edited{}}},
		"annotated (by hand)": {Content: []mcp.Content{mcp.TextContent{Type: "text", Text: "x", Annotated: mcp.Annotated{Annotations: &mcp.Annotations{Priority: ptr(1.0)}}}}},
		"other structured":    {StructuredContent: map[string]any{"z": 1, "a": "<"}},
		"raw structured":      {RawStructuredContent: json.RawMessage(`{"a":1}`)},
		"meta":                {Result: mcp.Result{Meta: &mcp.Meta{AdditionalFields: map[string]any{"k": "v"}}}},
		"a pointer content":   {Content: []mcp.Content{&mcp.TextContent{Type: "text", Text: "p"}}},
		"an image":            {Content: []mcp.Content{mcp.NewImageContent("AAAA", "image/png")}},
		"none":                nil,
	} {
		t.Run(name, func(t *testing.T) { sameAsMarshal(t, res) })
	}
}

func ptr[T any](v T) *T { return &v }

func FuzzEncodeResult(f *testing.F) {
	f.Add("hello\n", "", "", "echo", 0, int64(3), false, false, false)
	f.Add("<&>", "\xff\u2028", "SIGKILL", "a\"b", 137, int64(-1), true, true, true)
	f.Fuzz(func(t *testing.T, stdout, stderr, signal, arg string, code int, ms int64, trunc, timedOut, isErr bool) {
		sc := callResult{Stdout: stdout, Stderr: stderr, ExitCode: code, DurationMs: ms, Truncated: trunc, TimedOut: timedOut, Signal: signal}
		if arg != "" {
			sc.Edited = &edited{Ran: []string{arg}, Asked: []string{stdout, arg}}
		}
		res := mcp.NewToolResultStructured(sc, stdout+stderr)
		res.IsError = isErr
		sameAsMarshal(t, res)
	})
}
