package server

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/assent-sh/assent/queue"
	"github.com/assent-sh/assent/queue/queuetest"
	"github.com/assent-sh/assent/server/servertest"
)

// TestLines_LoneCallDoesNotHoldTheReading: a call that waits for an
// operator, sent on its own, is served by the goroutine that read it,
// which holds the turn to read; the turn must pass on, so the next request
// is answered and a cancellation reaches the call while it waits.
func TestLines_LoneCallDoesNotHoldTheReading(t *testing.T) {
	f := newFixture(t, nil)
	l := f.rawStdio(t)
	l.Send(servertest.Initialize("patient") + "\n" + servertest.Initialized)
	l.Response("1")
	l.Send(callChange("2", "f"))
	id := f.pendingCall()
	l.Send(`{"jsonrpc":"2.0","id":3,"method":"ping"}`)
	if resp, _ := l.Response("3"); !strings.Contains(resp, `"result"`) {
		t.Fatalf("ping while a call waits: %s", resp)
	}
	l.Send(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":2}}`)
	f.WaitStatus(id, queue.Cancelled)
}

// TestLines_BurstRunsAtOnce: calls sent together are served together, each
// on its own goroutine, so both wait for the operator at the same time. A
// held turn would pass on only after an hour here: the turn must be handed
// on because more input waits.
func TestLines_BurstRunsAtOnce(t *testing.T) {
	f := newFixture(t, nil)
	f.s.handOnAfter = time.Hour
	l := f.rawStdio(t)
	l.Send(servertest.Initialize("hasty") + "\n" + servertest.Initialized)
	l.Response("1")
	l.Send(callChange("2", "a") + "\n" + callChange("3", "b"))
	// Whatever goroutine serves a call holds the turn, so nothing reads
	// the end of input until the calls are answered.
	t.Cleanup(func() { _ = f.Queue.Close(context.Background(), "the test is over") })
	for _, file := range []string{"a", "b"} {
		if _, ok := queuetest.WaitFor(f.Queue, func(c queue.Call) bool {
			return c.Status == queue.Pending && c.Args["file"] == file
		}); !ok {
			t.Fatalf("the call on %s never waited for the operator", file)
		}
	}
}
