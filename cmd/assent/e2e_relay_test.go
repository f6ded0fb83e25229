package main

import (
	"context"
	"strings"
	"syscall"
	"testing"

	"github.com/mark3labs/mcp-go/client"

	"github.com/assent-sh/assent/server/servertest"
)

// bareEnv is what `env -i PATH=/usr/bin:/bin HOME=$HOME` leaves, about
// what an agent that passes its MCP servers almost nothing gives them: no
// XDG_RUNTIME_DIR, no XDG_STATE_HOME, no ASSENT_TOKEN.
func (e *e2e) bareEnv() []string { return []string{"PATH=/usr/bin:/bin", "HOME=" + e.dir} }

// relayClient is an MCP client of `assent stdio args...`, started with env.
func (e *e2e) relayClient(env []string, opts []client.ClientOption, n *servertest.Notes, args ...string) (*client.Client, *servertest.Buffer) {
	e.t.Helper()
	c, _, stderr := e.stdioChild(env, opts, n, append([]string{"stdio"}, args...)...)
	return c, stderr
}

// TestE2E_StdioRelay runs the shared scenario through `assent stdio`
// relaying to a running `assent serve`: the console was started with
// XDG_RUNTIME_DIR, XDG_STATE_HOME and ASSENT_TOKEN set, the relay with
// PATH and HOME only, and they find each other.
func TestE2E_StdioRelay(t *testing.T) {
	for _, era := range servertest.Eras() {
		t.Run(era.Name, func(t *testing.T) {
			e := newE2E(t)
			e.httpServer()
			var n servertest.Notes
			c, stderr := e.relayClient(e.bareEnv(), era.Options, &n)
			scenario(t, e, c, &n)
			if !strings.Contains(stderr.String(), "relaying to the console") {
				t.Errorf("the relay did not say where it relays:\n%s", stderr)
			}
		})
	}
}

func TestE2E_StdioRelayWithoutConsole(t *testing.T) {
	e := newE2E(t)
	out, err := e.command(context.Background(), "stdio").CombinedOutput()
	if err == nil || !strings.Contains(string(out), "no console is running") || !strings.Contains(string(out), "assent stdio --headless") {
		t.Fatalf("err %v, output %s", err, out)
	}
	out, err = e.command(context.Background(), "stdio", "--tools", e.tools).CombinedOutput()
	if err == nil || !strings.Contains(string(out), "--tools only apply with --headless") {
		t.Fatalf("err %v, output %s", err, out)
	}
	out, err = e.command(context.Background(), "stdio", "--headless", "--console", "x").CombinedOutput()
	if err == nil || !strings.Contains(string(out), "--console names the console to relay to") {
		t.Fatalf("err %v, output %s", err, out)
	}
}

// TestE2E_TwoConsoles: a second console gets its own name and socket, a
// taken name is refused, the relay asks which one, and one console ending
// leaves the other reachable.
func TestE2E_TwoConsoles(t *testing.T) {
	e := newE2E(t)
	_, first, _ := e.httpServer()
	e.httpServer("--journal", e.dir+"/state/second.jsonl")
	ctx := context.Background()
	out, err := e.command(ctx, "serve", "--headless", "--listen", "127.0.0.1:0", "--console", "console-2",
		"--journal", e.dir+"/state/third.jsonl").CombinedOutput()
	if err == nil || !strings.Contains(string(out), `a console named "console-2" is already running (pid `) {
		t.Fatalf("a third console taking a used name: %v\n%s", err, out)
	}
	cmd := e.command(ctx, "stdio")
	cmd.Env = e.bareEnv()
	out, err = cmd.CombinedOutput()
	if err == nil || !strings.Contains(string(out), "2 consoles are running (running: console (pid ") ||
		!strings.Contains(string(out), "console-2 (pid ") || !strings.Contains(string(out), "--console NAME") {
		t.Fatalf("relay with two consoles and no name: %v\n%s", err, out)
	}
	c, _ := e.relayClient(e.bareEnv(), nil, nil, "--console", "console-2")
	if _, err := servertest.Call(ctx, c, "say", map[string]any{"word": "second"}, ""); err != nil {
		t.Fatal(err)
	}
	if err := first.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	if err := first.Wait(); err != nil {
		t.Fatal(err)
	}
	c, _ = e.relayClient(e.bareEnv(), nil, nil)
	res, err := servertest.Call(ctx, c, "say", map[string]any{"word": "still-here"}, "")
	if err != nil || !strings.HasPrefix(servertest.Text(res), "still-here") {
		t.Fatalf("the second console after the first ended: %v %v", res, err)
	}
}

// TestE2E_RelayEndsOnSignal: SIGTERM ends the relay while its input is
// open and a call waits for the operator (it used to wait for stdin to
// close).
func TestE2E_RelayEndsOnSignal(t *testing.T) {
	e := newE2E(t)
	e.httpServer()
	cmd := e.command(context.Background(), "stdio")
	cmd.Env = e.bareEnv()
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		stdin.Close()
		if cmd.ProcessState == nil {
			_ = cmd.Process.Kill()
			_ = cmd.Wait()
		}
	})
	l := servertest.NewLines(t, stdin, stdout)
	l.Send(servertest.Initialize("sig") + "\n" + servertest.Initialized)
	l.Response("1")
	l.Send(`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"touch_it","arguments":{"file":"x"}}}`)
	if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	if err := awaitExit(cmd.Process.Pid); err != nil {
		t.Fatal(err)
	}
	if err := cmd.Wait(); err != nil {
		t.Fatalf("the relay's exit after SIGTERM: %v", err)
	}
}

// TestE2E_ServeSaysHowToRelay: the first console says to relay with plain
// `assent stdio`, which finds the only console running; a second one,
// which the relay cannot find without its name, says to name it.
func TestE2E_ServeSaysHowToRelay(t *testing.T) {
	e := newE2E(t)
	first, _, _, _ := e.serveHeadless()
	if !strings.HasSuffix(strings.TrimSpace(first), "; relay with `assent stdio`") {
		t.Errorf("the only console says %q, want it to end relay with `assent stdio`", first)
	}
	second, _, _, _ := e.serveHeadless("--journal", e.dir+"/state/second.jsonl")
	if !strings.HasSuffix(strings.TrimSpace(second), "; relay with `assent stdio --console console-2`") {
		t.Errorf("the second console says %q, want it to name itself", second)
	}
}
