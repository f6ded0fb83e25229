package server

import (
	"context"
	"io"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/assent-sh/assent/queue"
	"github.com/assent-sh/assent/server/servertest"
)

// runtimeDir is a fresh private directory standing in for the per-user
// runtime directory, so that tests never meet a real console. Its path is
// kept short: a socket path has at most 103 bytes.
func runtimeDir(t testing.TB) string {
	t.Helper()
	dir, err := os.MkdirTemp("", "assent-rt-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	return dir
}

// serveSocket starts the fixture's console socket in dir.
func (f *fixture) serveSocket(dir, name string) *Socket {
	f.T.Helper()
	k, err := f.s.ListenSocket(SocketOptions{Dir: dir, Name: name, URL: "http://127.0.0.1:1/mcp"})
	if err != nil {
		f.T.Fatal(err)
	}
	serveUntilCleanup(f.T, "socket", k.Serve, k.Shutdown)
	return k
}

// relayPipes runs Relay to the console in dir over pipes and returns the
// agent's ends, and a function that closes the agent's output and waits
// for Relay's result.
func relayPipes(t testing.TB, ctx context.Context, o RelayOptions) (agentIn io.ReadCloser, agentOut io.WriteCloser, wait func() error) {
	agentIn, relayOut := io.Pipe()
	relayIn, agentOut := io.Pipe()
	done := make(chan error, 1)
	go func() {
		err := Relay(ctx, o, relayIn, relayOut)
		relayOut.Close()
		done <- err
	}()
	t.Cleanup(func() {
		agentOut.Close()
		agentIn.Close()
		relayIn.Close()
	})
	wait = func() error {
		select {
		case err := <-done:
			return err
		case <-time.After(10 * time.Second):
			t.Fatal("the relay did not end")
		}
		return nil
	}
	return agentIn, agentOut, wait
}

// relayClient is an MCP client speaking stdio through Relay.
func relayClient(t testing.TB, o RelayOptions, opts []client.ClientOption, n *servertest.Notes) (*client.Client, func() error) {
	t.Helper()
	in, out, wait := relayPipes(t, context.Background(), o)
	c := client.NewClient(transport.NewIO(in, out, nil), opts...)
	servertest.Connect(t, c, "relayed-agent", n)
	return c, func() error {
		c.Close()
		out.Close()
		return wait()
	}
}

func TestRelay_BothEras(t *testing.T) {
	for _, era := range servertest.Eras() {
		t.Run(era.Name, func(t *testing.T) {
			f := newFixture(t, nil)
			dir := runtimeDir(t)
			f.serveSocket(dir, "")
			var notes servertest.Notes
			c, stop := relayClient(t, RelayOptions{Dir: dir}, era.Options, &notes)
			ctx := context.Background()

			tools, err := c.ListTools(ctx, mcp.ListToolsRequest{})
			if err != nil || len(tools.Tools) != 3 {
				t.Fatalf("tools %+v, %v", tools, err)
			}
			f.Runner.Expect("uname", "x").Stdout("Linux\n")
			res, err := servertest.Call(ctx, c, "look", map[string]any{"what_thing": "x"}, "tok-1")
			if err != nil || res.IsError || !strings.HasPrefix(servertest.Text(res), "Linux\n") {
				t.Fatalf("auto call: %+v, %v", res, err)
			}
			// A call waiting for the operator, with a heartbeat, approved.
			f.Runner.Expect("touch", "--", f.WorkDir+"/a")
			answered := make(chan *mcp.CallToolResult, 1)
			go func() {
				r, _ := servertest.Call(ctx, c, "change", map[string]any{"file": "a"}, "tok-2")
				answered <- r
			}()
			id := f.pendingCall()
			if got, _ := f.Queue.Call(id); got.Client != "relayed-agent" || !strings.HasPrefix(got.Session, "relay-") {
				t.Errorf("client %q session %q did not come through the relay", got.Client, got.Session)
			}
			servertest.WaitFor(t, "a heartbeat through the relay", func() bool {
				return len(notes.Messages(mcp.MethodNotificationProgress)) > 0
			})
			if err := f.Queue.Approve(id); err != nil {
				t.Fatal(err)
			}
			if r := <-answered; r == nil || r.IsError {
				t.Fatalf("approved call: %+v", r)
			}
			// A cancelled request withdraws its call.
			cctx, cancel := context.WithCancel(ctx)
			go func() { _, _ = servertest.Call(cctx, c, "change", map[string]any{"file": "b"}, "") }()
			id = f.pendingCall()
			cancel()
			f.WaitStatus(id, queue.Cancelled)
			// A tool list change reaches the agent.
			f.s.SetTools(f.LoadTools(strings.Replace(testTools, `"burn"`, `"burn_it"`, 1)).Config)
			servertest.WaitFor(t, "tools/list_changed through the relay", func() bool {
				return len(notes.Messages(mcp.MethodNotificationToolsListChanged)) > 0
			})
			if err := stop(); err != nil {
				t.Fatal(err)
			}
		})
	}
}

// TestRelay_AnswersLikeDirectStdio sends what a client library never
// sends through the relay and straight to stdio: the answers are the same.
func TestRelay_AnswersLikeDirectStdio(t *testing.T) {
	// Two fixtures, so that both number their calls alike.
	f, g := newFixture(t, nil), newFixture(t, nil)
	dir := runtimeDir(t)
	f.serveSocket(dir, "")
	in, out, _ := relayPipes(t, context.Background(), RelayOptions{Dir: dir})
	relayed := servertest.NewLines(t, out, in)
	direct := g.rawStdio(t)
	// A 2026-07-28 client's probe, then a tools/call without _meta, then
	// the malformed messages.
	sends := []string{
		`{"jsonrpc":"2.0","id":1,"method":"server/discover","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientInfo":{"name":"m","version":"1"},"io.modelcontextprotocol/clientCapabilities":{}}}}`,
		`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"burn","arguments":{"x":"y"}}}`,
	}
	for _, m := range malformed {
		sends = append(sends, m.send)
	}
	for _, send := range sends {
		relayed.Send(send)
		direct.Send(send)
		if r, d := relayed.Next(), direct.Next(); r != d {
			t.Errorf("answers to %s differ:\nrelay  %s\ndirect %s", send, r, d)
		}
	}
}

func TestRelay_EndsOnContextWithInputOpen(t *testing.T) {
	f := newFixture(t, nil)
	dir := runtimeDir(t)
	f.serveSocket(dir, "")
	ctx, cancel := context.WithCancel(context.Background())
	in, out, wait := relayPipes(t, ctx, RelayOptions{Dir: dir})
	l := servertest.NewLines(t, out, in)
	l.Send(servertest.Initialize("sig") + "\n" + servertest.Initialized + "\n" + callChange("2", "f"))
	id := f.pendingCall()
	cancel() // as a signal does; the agent's input stays open
	if err := wait(); err != nil {
		t.Fatal(err)
	}
	f.WaitStatus(id, queue.Cancelled)
}
