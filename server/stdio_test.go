package server

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"maps"
	"sync"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/assent-sh/assent/queue"
	"github.com/assent-sh/assent/server/servertest"
)

// stdioPipe serves the fixture over in-memory pipes and returns a started
// client, a hangup that closes both ends as a client process exiting would,
// and where ServeStdio's result lands.
func (f *fixture) stdioPipe(opts []client.ClientOption, n *servertest.Notes) (*client.Client, func(), <-chan error) {
	f.T.Helper()
	serverIn, clientOut := io.Pipe()
	clientIn, serverOut := io.Pipe()
	served := make(chan error, 1)
	exited := make(chan struct{})
	f.responses = &responseCounter{}
	go func() {
		defer close(exited)
		served <- f.s.ServeStdio(context.Background(), serverIn, io.MultiWriter(f.responses, serverOut))
		serverOut.Close()
	}()
	c := client.NewClient(transport.NewIO(clientIn, clientOut, nil), opts...)
	servertest.Connect(f.T, c, "test-agent", n)
	hangup := func() {
		_ = c.Close()        // the server reads end of input
		_ = clientIn.Close() // and its writes fail, as on a closed pipe
	}
	f.T.Cleanup(func() {
		hangup()
		select {
		case <-exited:
		case <-time.After(10 * time.Second):
			f.T.Error("ServeStdio did not return after its input closed")
		}
	})
	return c, hangup, served
}

func TestStdio_CallsInBothEras(t *testing.T) {
	for _, era := range servertest.Eras() {
		t.Run(era.Name, func(t *testing.T) {
			f := newFixture(t, nil)
			hold := make(chan struct{})
			f.Runner.Expect("uname", "p").Stdout("first\n").Hold = hold
			var n servertest.Notes
			c, _, _ := f.stdioPipe(era.Options, &n)
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			defer cancel()
			res, err := servertest.Call(ctx, c, "look", map[string]any{"what_thing": "-x"}, "")
			if err != nil || !res.IsError {
				t.Fatalf("refused call: %+v %v", res, err)
			}
			done := make(chan *mcp.CallToolResult, 1)
			go func() {
				res, _ := servertest.Call(ctx, c, "look", map[string]any{"what_thing": "p"}, "tok")
				done <- res
			}()
			servertest.WaitFor(t, "progress over stdio", func() bool {
				m := n.Messages(mcp.MethodNotificationProgress)
				return len(m) > 0 && m[0] == "first"
			})
			close(hold)
			if res := <-done; res == nil || res.IsError {
				t.Fatalf("result %+v", res)
			}
		})
	}
}

func TestStdio_EndOfInputEndsEveryCall(t *testing.T) {
	f := newFixture(t, nil)
	f.Runner.Expect("uname", "long").Hold = make(chan struct{})
	c, hangup, served := f.stdioPipe(nil, nil)
	go func() {
		_, _ = servertest.Call(context.Background(), c, "look", map[string]any{"what_thing": "long"}, "")
	}()
	running := f.runningCall()
	go func() { _, _ = servertest.Call(context.Background(), c, "change", map[string]any{"file": "f"}, "") }()
	pending := f.pendingCall()
	hangup()
	select {
	case err := <-served:
		if err != nil {
			t.Fatalf("ServeStdio: %v", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("ServeStdio did not return at the end of its input")
	}
	if got, _ := f.Queue.Call(pending); got.Status != queue.Cancelled {
		t.Errorf("pending call ended %s", got.Status)
	}
	if got, _ := f.Queue.Call(running); got.Status != queue.Done || got.Result == nil || !got.Result.Cancelled {
		t.Errorf("running call ended %s with %+v", got.Status, got.Result)
	}
}

// responseCounter counts the JSON-RPC responses written, by request id.
type responseCounter struct {
	mu    sync.Mutex
	buf   []byte
	count map[string]int
}

func (r *responseCounter) Write(p []byte) (int, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.count == nil {
		r.count = map[string]int{}
	}
	r.buf = append(r.buf, p...)
	for {
		i := bytes.IndexByte(r.buf, '\n')
		if i < 0 {
			return len(p), nil
		}
		var msg struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
		}
		if json.Unmarshal(r.buf[:i], &msg) == nil && msg.Method == "" && len(msg.ID) > 0 {
			r.count[string(msg.ID)]++
		}
		r.buf = r.buf[i+1:]
	}
}

// counts returns how many responses each request id got.
func (r *responseCounter) counts() map[string]int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return maps.Clone(r.count)
}
