package server

import (
	"context"
	"os"
	"strings"
	"testing"

	"github.com/assent-sh/assent/queue"
	"github.com/assent-sh/assent/server/servertest"
)

// rawStdio serves the fixture's stdio over operating-system pipes, as an
// agent's stdio is, and returns a raw line speaker; the pipes close when
// the test ends.
func (f *fixture) rawStdio(t testing.TB) *servertest.Lines {
	t.Helper()
	serverIn, clientOut, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	clientIn, serverOut, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		_ = f.s.ServeStdio(context.Background(), serverIn, serverOut)
		serverOut.Close()
	}()
	t.Cleanup(func() {
		clientOut.Close()
		clientIn.Close()
		<-done
		serverIn.Close()
	})
	return servertest.NewLines(t, clientOut, clientIn)
}

// callChange is a tools/call of the fixture's asking tool, with an id.
func callChange(id, file string) string {
	return `{"jsonrpc":"2.0","id":` + id + `,"method":"tools/call","params":{"name":"change","arguments":{"file":"` + file + `"}}}`
}

// TestStdio_BurstCarriesClientName sends initialize, initialized and a
// call in one write: the call must carry the client's name. mcp-go served
// the call before initialize had stored it, every time.
func TestStdio_BurstCarriesClientName(t *testing.T) {
	f := newFixture(t, nil)
	for i := range 5 {
		t.Run(string(rune('a'+i)), func(t *testing.T) { burst(t, f, "burst-agent-"+string(rune('a'+i))) })
	}
}

func burst(t *testing.T, f *fixture, name string) {
	{
		l := f.rawStdio(t)
		l.Send(servertest.Initialize(name) + "\n" + servertest.Initialized + "\n" + callChange("2", "f"))
		id := f.pendingCall()
		if got, _ := f.Queue.Call(id); got.Client != name {
			t.Fatalf("the call's client is %q, want %q", got.Client, name)
		}
		if err := f.Queue.Deny(id, "enough"); err != nil {
			t.Fatal(err)
		}
		if resp, _ := l.Response("2"); !strings.Contains(resp, "enough") {
			t.Fatalf("answer %s", resp)
		}
	}
}

// TestStdio_CancelledRequestGetsNoResponse: the specification says the
// receiver of notifications/cancelled SHOULD NOT answer the request.
func TestStdio_CancelledRequestGetsNoResponse(t *testing.T) {
	f := newFixture(t, nil)
	l := f.rawStdio(t)
	l.Send(servertest.Initialize("canceller") + "\n" + servertest.Initialized)
	l.Response("1")
	l.Send(callChange("2", "f"))
	id := f.pendingCall()
	l.Send(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":2,"reason":"changed my mind"}}`)
	f.WaitStatus(id, queue.Cancelled)
	l.Send(`{"jsonrpc":"2.0","id":3,"method":"ping"}`)
	if _, before := l.Response("3"); len(before) > 0 {
		t.Fatalf("lines before the ping's answer (a response to the cancelled request?): %q", before)
	}
}

// malformed are messages every transport refuses alike, each with the
// answer's error code and words in it.
var malformed = []struct {
	name, send string
	code       string
	words      string
}{
	{"batch", `[{"jsonrpc":"2.0","id":9,"method":"ping"}]`, "-32600", "batches are not supported"},
	{"null id", `{"jsonrpc":"2.0","id":null,"method":"ping"}`, "-32600", "null id is not allowed"},
	{"id without a method", `{"jsonrpc":"2.0","id":9}`, "-32600", "needs a method"},
	{"object id", `{"jsonrpc":"2.0","id":{"a":1},"method":"ping"}`, "-32600", "string or a number"},
	{"not JSON", `{"jsonrpc":`, "-32700", "not valid JSON"},
	{"not an object", `"ping"`, "-32600", "must be an object"},
	{"wrong version", `{"jsonrpc":"1.0","id":9,"method":"ping"}`, "-32600", "jsonrpc member must be 2.0"},
}

func TestStdio_MalformedMessages(t *testing.T) {
	f := newFixture(t, nil)
	l := f.rawStdio(t)
	l.Send(servertest.Initialize("x"))
	l.Response("1")
	for _, tc := range malformed {
		t.Run(tc.name, func(t *testing.T) {
			l.Send(tc.send)
			got := l.Next()
			if !strings.Contains(got, `"code":`+tc.code) || !strings.Contains(got, tc.words) {
				t.Fatalf("answer %s, want code %s and %q", got, tc.code, tc.words)
			}
		})
	}
}

func TestReadLine_TooLongIsSkipped(t *testing.T) {
	f := newFixture(t, nil)
	l := f.rawStdio(t)
	l.Send(`{"jsonrpc":"2.0","id":1,"method":"ping","params":{"x":"` + strings.Repeat("a", maxLine) + `"}}` + "\n" +
		servertest.Initialize("after"))
	if got := l.Next(); !strings.Contains(got, "longer than") {
		t.Fatalf("answer to an overlong line: %.200s", got)
	}
	if resp, _ := l.Response("1"); !strings.Contains(resp, "protocolVersion") {
		t.Fatalf("the next message was not served: %.200s", resp)
	}
}
