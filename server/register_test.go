package server

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/assent-sh/assent/queue"
	"github.com/assent-sh/assent/queue/queuetest"
	"github.com/assent-sh/assent/server/servertest"
)

// early is a server whose mcp-go is held while it announces the first
// tool set, served over stdio to a client that writes raw lines.
type early struct {
	t       *testing.T
	qf      *queuetest.Fixture
	s       *Server
	hold    *holding
	release func()
	out     io.Writer
	lines   chan string
}

// newEarly builds the server on tools and connects a raw client. mcp-go
// announces the set it took to every session it has; a holding session,
// registered at once, holds it inside SetTools until release. It must be
// registered while mcp-go still takes the set: give a thousand tools or so
// (some milliseconds of mcp-go's work; fifty took it 0.4 ms, and the
// session came too late in one run of the suite).
func newEarly(t *testing.T, tools string, opts Options) *early {
	e := &early{t: t, qf: queuetest.New(t, queuetest.Options{Tools: tools}), lines: make(chan string, 100)}
	opts.Queue = e.qf.Queue
	var err error
	if e.s, err = New(e.qf.Config(), opts); err != nil {
		t.Fatal(err)
	}
	e.hold = &holding{asked: make(chan struct{}), release: make(chan struct{})}
	if err := e.s.mcp.RegisterSession(context.Background(), e.hold); err != nil {
		t.Fatal(err)
	}
	e.release = sync.OnceFunc(func() { close(e.hold.release) })
	serverIn, clientOut := io.Pipe()
	clientIn, serverOut := io.Pipe()
	e.out = clientOut
	served := make(chan error, 1)
	go func() { served <- e.s.ServeStdio(context.Background(), serverIn, serverOut); serverOut.Close() }()
	go func() {
		sc := bufio.NewScanner(clientIn)
		sc.Buffer(nil, 64<<20)
		for sc.Scan() {
			e.lines <- sc.Text()
		}
		close(e.lines)
	}()
	t.Cleanup(func() {
		e.release()
		e.s.mcp.UnregisterSession(context.Background(), e.hold.SessionID())
		clientOut.Close()
		clientIn.Close()
		<-served
	})
	return e
}

// send writes lines for the server to read.
func (e *early) send(lines string) { go io.WriteString(e.out, lines) }

// read is the next message the server wrote.
func (e *early) read() map[string]json.RawMessage {
	e.t.Helper()
	select {
	case l, ok := <-e.lines:
		var m map[string]json.RawMessage
		if !ok || json.Unmarshal([]byte(l), &m) != nil {
			e.t.Fatalf("read %q (open %v)", l, ok)
		}
		return m
	case <-time.After(10 * time.Second):
		e.t.Fatal("no message from the server")
	}
	return nil
}

// held waits until mcp-go is held, announcing the tools it took.
func (e *early) held() {
	e.t.Helper()
	select {
	case <-e.hold.asked:
	case <-time.After(10 * time.Second):
		e.t.Fatal("mcp-go never announced the tools")
	}
	select {
	case <-e.s.registered:
		e.t.Fatal("mcp-go holds the tools already: it took them before the session that holds it was registered")
	default:
	}
}

const initializeLines = `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"quick","version":"1"}}}
{"jsonrpc":"2.0","method":"notifications/initialized"}
`

// A client that starts at once meets a server whose mcp-go is still
// taking the first tool set. initialize and the tools/list of the
// initialize era are answered meanwhile; ping and the 2026-07-28
// tools/list after it, with the whole set; and the tools/list_changed
// mcp-go sends as it takes the set does not reach the client, which was
// given the set already.
func TestNew_ServesBeforeMCPGoHoldsTheTools(t *testing.T) {
	const tools = 1000
	e := newEarly(t, servertest.ManyTools(tools), Options{})
	modern := `,"params":{"_meta":{"` + mcp.MetaKeyProtocolVersion + `":"2026-07-28","` + mcp.MetaKeyClientCapabilities + `":{}}}`
	e.send(initializeLines + `{"jsonrpc":"2.0","id":1,"method":"tools/list"}
{"jsonrpc":"2.0","id":2,"method":"ping"}
{"jsonrpc":"2.0","id":3,"method":"tools/list"` + modern + `}
`)
	got := map[string]map[string]json.RawMessage{}
	for _, id := range []string{"0", "1"} {
		m := e.read()
		if string(m["id"]) != id {
			t.Fatalf("answer %s, want request %s's", m["id"], id)
		}
		got[id] = m
	}
	e.held()
	e.release()
	for range 2 {
		m := e.read()
		if _, ok := m["id"]; !ok {
			t.Fatalf("notification %s", m["method"])
		}
		got[string(m["id"])] = m
	}
	for _, id := range []string{"1", "3"} {
		var res mcp.ListToolsResult
		if err := json.Unmarshal(got[id]["result"], &res); err != nil || len(res.Tools) != tools {
			t.Fatalf("tools/list %s: %d tools (%v) in %.200s", id, len(res.Tools), err, got[id])
		}
	}
	if _, ok := got["2"]["result"]; !ok {
		t.Fatalf("ping: %s", got["2"])
	}
	<-e.s.registered
	select {
	case l := <-e.lines:
		t.Fatalf("unexpected message %s", l)
	case <-time.After(200 * time.Millisecond):
	}
}

// A call that waits for an operator while mcp-go still takes the first
// tool set is still told, by progress, that it waits: mcp-go sends a line
// session nothing until it holds the set, and the first message was lost.
func TestNew_ProgressOfAnEarlyCall(t *testing.T) {
	tools := strings.Replace(testTools, `"tools": [`, `"tools": [`+strings.TrimSuffix(strings.TrimPrefix(servertest.ManyTools(1000), `{"tools": [`), "]}")+",", 1)
	e := newEarly(t, tools, Options{ProgressInterval: 20 * time.Millisecond, Heartbeat: time.Hour})
	e.send(initializeLines + `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"change","arguments":{"file":"f"},"_meta":{"progressToken":"tok"}}}
`)
	if m := e.read(); string(m["id"]) != "0" {
		t.Fatalf("answer %s, want initialize's", m["id"])
	}
	e.held()
	var id queue.ID
	servertest.WaitFor(t, "the call to wait for an operator", func() bool {
		for _, c := range e.qf.Queue.Snapshot().Calls {
			if c.Status == queue.Pending {
				id = c.ID
				return true
			}
		}
		return false
	})
	time.Sleep(50 * time.Millisecond) // past the progress interval
	e.release()
	<-e.s.registered
	m := e.read()
	if string(m["method"]) != `"`+string(mcp.MethodNotificationProgress)+`"` || !strings.Contains(string(m["params"]), "waiting for an operator") {
		t.Fatalf("first message after the call began: %s %s, want progress saying it waits", m["method"], m["params"])
	}
	if err := e.qf.Queue.Deny(id, "no"); err != nil {
		t.Fatal(err)
	}
	if m := e.read(); string(m["id"]) != "1" {
		t.Fatalf("answer %s, want the call's", m["id"])
	}
}

// holding is a session that, asked by mcp-go whether it is initialized,
// holds mcp-go there until released.
type holding struct {
	once           sync.Once
	asked, release chan struct{}
}

func (h *holding) Initialize() {}
func (h *holding) Initialized() bool {
	h.once.Do(func() { close(h.asked) })
	<-h.release
	return false
}
func (h *holding) SessionID() string                                   { return "holding" }
func (h *holding) NotificationChannel() chan<- mcp.JSONRPCNotification { return nil }
