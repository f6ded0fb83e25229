package main

import (
	"context"
	"net"
	osexec "os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/assent-sh/assent/server"
	"github.com/assent-sh/assent/server/servertest"
	"github.com/assent-sh/assent/ui"
)

// consoleTools has one tool that is not read-only and no rules, so every
// call waits for the operator.
const consoleTools = `{"tools": [{"name": "say", "description": "Say a {word}", "command": "echo {word}"}]}`

// TestConsole_TmuxApproveDenyQuit runs `assent` in a real terminal (tmux,
// 120×40) and an agent over HTTP: the operator sees the argv, approves a
// call with a and sees its output, denies one with a reason the agent
// receives, and quits, which removes the runtime file and exits 0.
func TestConsole_TmuxApproveDenyQuit(t *testing.T) {
	tmux, err := osexec.LookPath("tmux")
	if err != nil {
		t.Skip("tmux is not installed")
	}
	e := newE2ESetting(t)
	e.writeTools(consoleTools)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	env := append([]string{"TERM=xterm-256color", "ASSENT_TOKEN=" + e2eToken}, e.env...)
	sc := newScreen(t, tmux, filepath.Join(e.dir, "work"), env, 120, 40,
		e.bin, "--tools", e.tools, "--listen", addr)
	url := "http://" + addr + "/mcp"
	sc.waitForText(url)

	c := e.httpClient(url, nil, nil)

	// Approve: the argv is on the screen, a runs it, and both the agent
	// and the output pane get its output.
	res := callInBackground(c, "say", "approved-by-tmux")
	sc.waitFor("the argv element on its own line", argvLine("approved-by-tmux"))
	time.Sleep(ui.DefaultGrace + 300*time.Millisecond) // keys are ignored for a moment after a call appears
	sc.keys("a")
	r := awaitResult(t, res)
	if r.IsError || !strings.HasPrefix(servertest.Text(r), "approved-by-tmux\n[exit 0 · ") {
		t.Fatalf("approved call: isError %v, %q", r.IsError, servertest.Text(r))
	}
	sc.waitFor("the output in the output pane", func(s string) bool {
		_, below, ok := strings.Cut(s, "output ·")
		return ok && strings.Contains(below, "approved-by-tmux")
	})

	// Deny with a reason: typed into the dialog, received by the agent.
	res = callInBackground(c, "say", "denied-by-tmux")
	sc.waitFor("the second call's argv", argvLine("denied-by-tmux"))
	time.Sleep(ui.DefaultGrace + 300*time.Millisecond)
	sc.keys("d")
	sc.waitForText("The agent receives this reason")
	sc.typeText("not today, agent")
	sc.keys("Enter")
	r = awaitResult(t, res)
	if want := "denied by the operator: not today, agent"; !r.IsError || servertest.Text(r) != want {
		t.Fatalf("denied call: isError %v, %q, want %q", r.IsError, servertest.Text(r), want)
	}

	// Quit with nothing waiting: no question, exit 0, socket and runtime
	// file gone.
	sc.waitForText("0 pending · 0 running · 2 done")
	sc.keys("q")
	if status := sc.exitStatus(); status != "0" {
		t.Fatalf("exit status %q", status)
	}
	if live, err := server.Consoles(testRuntimeDir(e.bin)); err != nil || len(live) != 0 {
		t.Fatalf("consoles left after quitting: %+v %v", live, err)
	}
	if _, err := server.ReadRuntime(filepath.Join(testRuntimeDir(e.bin), "console.json")); err == nil {
		t.Fatal("the runtime file is left behind")
	}
}

// argvLine matches a screen showing word as an argv element on a line of
// its own in the detail pane.
func argvLine(word string) func(string) bool {
	re := regexp.MustCompile(`│\s+` + regexp.QuoteMeta(word) + `\s+│`)
	return re.MatchString
}

type callResult struct {
	res *mcp.CallToolResult
	err error
}

// callInBackground calls tool with word and delivers the answer on the
// returned channel.
func callInBackground(c *client.Client, tool, word string) <-chan callResult {
	out := make(chan callResult, 1)
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		r, err := servertest.Call(ctx, c, tool, map[string]any{"word": word}, "")
		out <- callResult{r, err}
	}()
	return out
}

func awaitResult(t *testing.T, ch <-chan callResult) *mcp.CallToolResult {
	t.Helper()
	select {
	case r := <-ch:
		if r.err != nil {
			t.Fatal(r.err)
		}
		return r.res
	case <-time.After(10 * time.Second):
		t.Fatal("the agent got no answer")
	}
	return nil
}
