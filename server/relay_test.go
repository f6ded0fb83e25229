package server

import (
	"bufio"
	"context"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/assent-sh/assent/queue"
	"github.com/assent-sh/assent/server/servertest"
)

// relayClient connects an MCP client speaking stdio, through Relay, to the
// fixture's HTTP endpoint, and returns it with a function that ends the
// agent's input and waits for Relay.
func (f *fixture) relayClient(h *HTTP, token string, opts []client.ClientOption, n *servertest.Notes) (*client.Client, func() error) {
	f.T.Helper()
	agentIn, relayOut := io.Pipe() // what the relay writes, the client reads
	relayIn, agentOut := io.Pipe() // what the client writes, the relay reads
	done := make(chan error, 1)
	go func() {
		err := Relay(context.Background(), RelayOptions{URL: h.URL(), Token: token}, relayIn, relayOut)
		relayOut.Close()
		done <- err
	}()
	c := client.NewClient(transport.NewIO(agentIn, agentOut, nil), opts...)
	servertest.Connect(f.T, c, "relayed-agent", n)
	stop := func() error {
		c.Close()
		agentOut.Close()
		select {
		case err := <-done:
			return err
		case <-time.After(10 * time.Second):
			f.T.Fatal("relay did not end with its input")
		}
		return nil
	}
	return c, stop
}

func TestRelay_BothEras(t *testing.T) {
	for _, era := range servertest.Eras() {
		t.Run(era.Name, func(t *testing.T) {
			f := newFixture(t, nil)
			h := f.serveHTTP(HTTPOptions{})
			var notes servertest.Notes
			c, stop := f.relayClient(h, testToken, era.Options, &notes)
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
			res, err = servertest.Call(ctx, c, "burn", map[string]any{"x": "y"}, "")
			if err != nil || !res.IsError || !strings.Contains(servertest.Text(res), "never burn") {
				t.Fatalf("denied call: %+v, %v", res, err)
			}

			// A call waiting for the operator, approved from the queue while
			// a progress heartbeat comes through the relay.
			f.Runner.Expect("touch", "--", f.WorkDir+"/a")
			answered := make(chan *mcp.CallToolResult, 1)
			go func() {
				r, err := servertest.Call(ctx, c, "change", map[string]any{"file": "a"}, "tok-2")
				if err != nil {
					t.Error(err)
				}
				answered <- r
			}()
			id := f.pendingCall()
			if c, _ := f.Queue.Call(id); c.Client != "relayed-agent" {
				t.Errorf("client name %q did not pass through the relay", c.Client)
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

func TestRelay_WrongTokenAnswersWithAnError(t *testing.T) {
	f := newFixture(t, nil)
	h := f.serveHTTP(HTTPOptions{})
	in := strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"x","version":"1"}}}` + "\n")
	var out strings.Builder
	if err := Relay(context.Background(), RelayOptions{URL: h.URL(), Token: "wrong-token-0123456789"}, in, &out); err != nil {
		t.Fatal(err)
	}
	if got := out.String(); !strings.Contains(got, `"id":1`) || !strings.Contains(got, "401") || !strings.Contains(got, "assent token") {
		t.Fatalf("answer %q", got)
	}
}

func TestRelay_ConsoleGone(t *testing.T) {
	in, agent := io.Pipe()
	outR, out := io.Pipe()
	done := make(chan error, 1)
	go func() {
		done <- Relay(context.Background(), RelayOptions{URL: "http://127.0.0.1:1/mcp", Token: "x"}, in, out)
	}()
	lines := bufio.NewScanner(outR)
	for _, tt := range []struct{ send, want string }{
		{`{"jsonrpc":"2.0","id":7,"method":"tools/list","params":{}}`, "is not reachable"},
		{`not json`, "not a JSON-RPC message"},
	} {
		if _, err := io.WriteString(agent, tt.send+"\n"); err != nil {
			t.Fatal(err)
		}
		if !lines.Scan() || !strings.Contains(lines.Text(), tt.want) {
			t.Fatalf("answer to %s: %q", tt.send, lines.Text())
		}
	}
	agent.Close()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
}
