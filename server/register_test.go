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

	"github.com/assent-sh/assent/queue/queuetest"
	"github.com/assent-sh/assent/server/servertest"
)

// A client that starts at once meets a server whose mcp-go is still
// taking the first tool set. It is answered as by one that has it: the
// tools/list of either era and mcp-go's other methods give the whole set,
// and the tools/list_changed mcp-go sends as it takes the set is not sent
// to the client, which was given the set already.
func TestNew_ServesBeforeMCPGoHoldsTheTools(t *testing.T) {
	const tools = 1000
	qf := queuetest.New(t, queuetest.Options{Tools: servertest.ManyTools(tools)})
	serverIn, clientOut := io.Pipe()
	clientIn, serverOut := io.Pipe()
	s, err := New(qf.Config(), Options{Queue: qf.Queue})
	if err != nil {
		t.Fatal(err)
	}
	// mcp-go announces the set it took to every session it has: this one
	// holds it there until the client below has been answered.
	hold := &holding{asked: make(chan struct{}), release: make(chan struct{})}
	if err := s.mcp.RegisterSession(context.Background(), hold); err != nil {
		t.Fatal(err)
	}
	defer s.mcp.UnregisterSession(context.Background(), hold.SessionID())
	release := sync.OnceFunc(func() { close(hold.release) })
	served := make(chan error, 1)
	go func() { served <- s.ServeStdio(context.Background(), serverIn, serverOut); serverOut.Close() }()
	defer func() {
		release()
		clientOut.Close()
		clientIn.Close()
		<-served
	}()
	modern := `,"params":{"_meta":{"` + mcp.MetaKeyProtocolVersion + `":"2026-07-28","` + mcp.MetaKeyClientCapabilities + `":{}}}`
	go io.WriteString(clientOut, `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"quick","version":"1"}}}
{"jsonrpc":"2.0","method":"notifications/initialized"}
{"jsonrpc":"2.0","id":1,"method":"tools/list"}
{"jsonrpc":"2.0","id":2,"method":"ping"}
{"jsonrpc":"2.0","id":3,"method":"tools/list"`+modern+`}
`)
	lines := make(chan string)
	go func() {
		sc := bufio.NewScanner(clientIn)
		sc.Buffer(nil, 64<<20)
		for sc.Scan() {
			lines <- sc.Text()
		}
		close(lines)
	}()
	got := map[string]map[string]json.RawMessage{}
	read := func() map[string]json.RawMessage {
		t.Helper()
		select {
		case l, ok := <-lines:
			var m map[string]json.RawMessage
			if !ok || json.Unmarshal([]byte(l), &m) != nil {
				t.Fatalf("read %q (open %v)", l, ok)
			}
			return m
		case <-time.After(10 * time.Second):
			ids := []string{}
			for id := range got {
				ids = append(ids, id)
			}
			t.Fatalf("no answer; have %v", ids)
		}
		return nil
	}
	if m := read(); string(m["id"]) != "0" {
		t.Fatalf("first answer %v, want initialize's", m)
	}
	// initialize and the tools/list of the initialize era are answered
	// while mcp-go is still held.
	if m := read(); string(m["id"]) != "1" {
		t.Fatalf("second answer %v, want tools/list's", m)
	} else {
		got["1"] = m
	}
	select {
	case <-s.registered:
		t.Fatal("mcp-go holds the tools already: it took them before the session that holds it was registered")
	default:
	}
	select {
	case <-hold.asked:
	case <-time.After(10 * time.Second):
		t.Fatal("mcp-go never announced the tools")
	}
	release()
	for range 2 {
		m := read()
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
	<-s.registered
	select {
	case l := <-lines:
		if strings.Contains(l, string(mcp.MethodNotificationToolsListChanged)) {
			t.Fatalf("the client was told the tools changed: %s", l)
		}
		t.Fatalf("unexpected message %s", l)
	case <-time.After(200 * time.Millisecond):
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
