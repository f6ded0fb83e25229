package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/assent-sh/assent/server/servertest"
)

// scenario makes the calls every transport must answer alike, through a
// started client of a headless assent serving e2eTools.
func scenario(t *testing.T, e *e2e, c *client.Client, n *servertest.Notes) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	t.Run("list", func(t *testing.T) {
		res, err := c.ListTools(ctx, mcp.ListToolsRequest{})
		if err != nil {
			t.Fatal(err)
		}
		if len(res.Tools) != 5 {
			t.Fatalf("%d tools", len(res.Tools))
		}
		for _, tl := range res.Tools {
			a := tl.Annotations
			if a.ReadOnlyHint == nil || a.DestructiveHint == nil || a.IdempotentHint == nil || a.OpenWorldHint == nil {
				t.Fatalf("%s: annotations %+v", tl.Name, a)
			}
			// The tool as it came over the wire, re-encoded.
			wire, err := json.Marshal(tl)
			if err != nil {
				t.Fatal(err)
			}
			var schemas struct{ InputSchema, OutputSchema map[string]any }
			if err := json.Unmarshal(wire, &schemas); err != nil {
				t.Fatal(err)
			}
			if schemas.InputSchema["additionalProperties"] != false || len(schemas.OutputSchema["required"].([]any)) != 6 {
				t.Fatalf("%s: schemas %s", tl.Name, wire)
			}
			if readOnly := tl.Name != "burn" && tl.Name != "touch_it"; *a.ReadOnlyHint != readOnly || *a.DestructiveHint == readOnly {
				t.Errorf("%s: readOnly %v destructive %v", tl.Name, *a.ReadOnlyHint, *a.DestructiveHint)
			}
			if tl.Name == "say" && tl.Description != "Say a word" {
				t.Errorf("description %q", tl.Description)
			}
		}
	})
	calls := []struct {
		name    string
		tool    string
		args    map[string]any
		isError bool
		text    string
	}{
		{"auto-approved", "say", map[string]any{"word": "hello $(id) *"}, false, "hello $(id) *\n[exit 0 · "},
		{"denied by rule", "burn", map[string]any{"x": "y"}, true, "denied by rule no-burn: never burn"},
		{"headless denies what would ask", "touch_it", map[string]any{"file": "x"}, true, "denied: no approver is attached (headless): no rule matched"},
		{"refused argument", "say", map[string]any{"word": "-n"}, true, `tool "say": parameter "word" starts with '-'`},
		{"timeout", "nap", map[string]any{"secs": "5"}, true, "timed out after 300ms; no output\n[ended by SIGTERM · "},
	}
	for _, tc := range calls {
		t.Run(tc.name, func(t *testing.T) {
			res, err := servertest.Call(ctx, c, tc.tool, tc.args, "")
			if err != nil {
				t.Fatal(err)
			}
			if res.IsError != tc.isError || !strings.HasPrefix(servertest.Text(res), tc.text) {
				t.Fatalf("isError %v, text %q; want %v, %q", res.IsError, servertest.Text(res), tc.isError, tc.text)
			}
		})
	}
	t.Run("progress, then cancel kills the process", func(t *testing.T) {
		marker := fmt.Sprintf("follow-%d.log", time.Now().UnixNano())
		if err := os.WriteFile(filepath.Join(e.dir, "work", marker), []byte("line1\nline2\n"), 0o600); err != nil {
			t.Fatal(err)
		}
		cctx, stop := context.WithCancel(ctx)
		errc := make(chan error, 1)
		go func() {
			_, err := servertest.Call(cctx, c, "follow", map[string]any{"path": marker}, "tok-"+marker)
			errc <- err
		}()
		servertest.WaitFor(t, "output as progress", func() bool {
			for _, m := range n.Messages(mcp.MethodNotificationProgress) {
				if m == "line1\nline2" {
					return true
				}
			}
			return false
		})
		if len(processesWith(marker)) == 0 {
			t.Fatal("the followed file has no process")
		}
		stop()
		if err := <-errc; err == nil {
			t.Fatal("the cancelled call returned a result")
		}
		servertest.WaitFor(t, "the process to be gone", func() bool { return len(processesWith(marker)) == 0 })
	})
	t.Run("200 concurrent calls", func(t *testing.T) {
		const calls = 200
		answers := servertest.CallAll(ctx, c, calls, func(i int) (string, map[string]any) {
			return "say", map[string]any{"word": fmt.Sprint(i)}
		})
		ran := 0
		for i, a := range answers {
			switch {
			case strings.HasPrefix(a, fmt.Sprintf("%d\n[exit 0 · ", i)):
				ran++
			case a == "too many calls running (limit 16); retry shortly":
			default:
				t.Fatalf("call %d answered %q", i, a)
			}
		}
		if ran == 0 {
			t.Fatal("no call ran")
		}
	})
}
