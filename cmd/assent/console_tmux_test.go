package main

import (
	"context"
	"encoding/base64"
	"net"
	"os"
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
	tc := startTmuxConsole(t)
	sc, e := tc.screen, tc.e

	c := e.httpClient(tc.url, nil, nil)

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
// its own in the detail pane (framed light, or heavy when it has the
// focus).
func argvLine(word string) func(string) bool {
	re := regexp.MustCompile(`[│┃]\s+` + regexp.QuoteMeta(word) + `\s+[│┃]`)
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

// tmuxConsole is `assent` running in tmux with the bytes it writes to
// the terminal kept in a file (tmux's pipe-pane), and tmux told to accept
// clipboard writes (OSC 52) as paste buffers.
type tmuxConsole struct {
	*screen
	e       *e2e
	url     string
	written string
}

func startTmuxConsole(t *testing.T) *tmuxConsole {
	t.Helper()
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
	tc := &tmuxConsole{screen: newScreen(t, tmux, filepath.Join(e.dir, "work"), env, 120, 40,
		e.bin, "--tools", e.tools, "--listen", addr), e: e, url: "http://" + addr + "/mcp",
		written: filepath.Join(e.dir, "terminal.out")}
	tc.waitForText(tc.url)
	// pipe-pane runs its command with the shell: this is the test's tmux,
	// not the product, and the path is the test's own.
	if out, err := tc.run("pipe-pane", "-O", "-t", "console", "cat >> "+tc.written); err != nil {
		t.Fatalf("pipe-pane: %v\n%s", err, out)
	}
	if out, err := tc.run("set-option", "-s", "set-clipboard", "on"); err != nil {
		t.Fatalf("set-clipboard: %v\n%s", err, out)
	}
	return tc
}

// waitWritten waits until the console has written want to the terminal.
func (tc *tmuxConsole) waitWritten(what, want string) {
	tc.t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		data, _ := os.ReadFile(tc.written)
		if strings.Contains(string(data), want) {
			return
		}
		if time.Now().After(deadline) {
			tc.t.Fatalf("the console never wrote %s %q; it wrote:\n%q", what, want, data)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// quit quits the console with nothing waiting and checks it exits 0.
func (tc *tmuxConsole) quit() {
	tc.t.Helper()
	tc.keys("q")
	if status := tc.exitStatus(); status != "0" {
		tc.t.Fatalf("exit status %q", status)
	}
}

// TestConsole_TmuxNotify checks the bytes a call that starts waiting
// sends the terminal: the bell, and a notification (OSC 9; inside tmux,
// wrapped in its passthrough, which hands it to the terminal outside).
func TestConsole_TmuxNotify(t *testing.T) {
	tc := startTmuxConsole(t)
	res := callInBackground(tc.e.httpClient(tc.url, nil, nil), "say", "notify-me")
	tc.waitFor("the waiting call", argvLine("notify-me"))
	tc.waitWritten("the notification", "\x1bPtmux;\x1b\x1b]9;#1 say waits for approval")
	tc.waitWritten("the bell", "\a")
	time.Sleep(ui.DefaultGrace + 300*time.Millisecond) // keys are ignored for a moment after a call appears
	tc.keys("d")
	tc.waitForText("The agent receives this reason")
	tc.keys("Enter")
	if r := awaitResult(t, res); !r.IsError {
		t.Fatalf("the denied call: %q", servertest.Text(r))
	}
	tc.quit()
}

// TestConsole_TmuxCopy copies the chosen snippet of the connect help with
// y: the console writes OSC 52, and tmux keeps what it carried as a paste
// buffer, the URL exactly.
func TestConsole_TmuxCopy(t *testing.T) {
	tc := startTmuxConsole(t)
	tc.keys("c")
	tc.waitForText("y copies it")
	tc.keys("y")
	tc.waitWritten("the clipboard write", "\x1b]52;c;"+base64.StdEncoding.EncodeToString([]byte(tc.url)))
	tc.waitFor("the paste buffer", func(string) bool {
		out, err := tc.run("show-buffer")
		return err == nil && out == tc.url
	})
	tc.keys("c") // closes the help
	tc.waitFor("the connect help closed", func(s string) bool { return !strings.Contains(s, "y copies it") })
	tc.quit()
}
