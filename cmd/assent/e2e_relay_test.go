package main

import (
	"context"
	"strings"
	"testing"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	osexec "os/exec"

	"github.com/assent-sh/assent/server/servertest"
)

// TestE2E_StdioRelay runs the shared scenario through `assent stdio`
// (no --headless) relaying to a running `assent serve`, found through its
// runtime file: an agent that only speaks stdio gets everything an HTTP
// client gets.
func TestE2E_StdioRelay(t *testing.T) {
	for _, era := range servertest.Eras() {
		t.Run(era.Name, func(t *testing.T) {
			e := newE2E(t)
			e.httpServer()
			stderr := &servertest.Buffer{}
			tr := transport.NewStdioWithOptions(e.bin, nil, []string{"stdio"}, transport.WithCommandFunc(
				func(ctx context.Context, _ string, _ []string, args []string) (*osexec.Cmd, error) {
					cmd := e.command(ctx, args...)
					cmd.Env = append(cmd.Env, "ASSENT_TOKEN="+e2eToken)
					cmd.Stderr = stderr
					return cmd, nil
				}))
			c := client.NewClient(tr, era.Options...)
			var n servertest.Notes
			servertest.Connect(t, c, "e2e-agent", &n)
			t.Cleanup(func() {
				_ = c.Close()
				if t.Failed() {
					t.Logf("relay's stderr:\n%s", stderr)
				}
			})
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
}
