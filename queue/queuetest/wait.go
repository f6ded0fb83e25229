package queuetest

import (
	"time"

	"github.com/assent-sh/assent/queue"
)

// Timeout bounds every wait: far longer than any call of a test takes, so
// reaching it means the call never got there.
const Timeout = 10 * time.Second

// Wait returns the call with the given id once cond holds for it, reading
// the queue's events (no polling), or fails the test after Timeout.
func (f *Fixture) Wait(id queue.ID, what string, cond func(queue.Call) bool) queue.Call {
	f.T.Helper()
	c, ok := WaitFor(f.Queue, func(c queue.Call) bool { return c.ID == id && cond(c) })
	if !ok {
		now, err := f.Queue.Call(id)
		f.T.Fatalf("call %s: never %s (now %s, %v)", id, what, now.Status, err)
	}
	return c
}

// WaitStatus returns call id once it has status want.
func (f *Fixture) WaitStatus(id queue.ID, want queue.Status) queue.Call {
	f.T.Helper()
	return f.Wait(id, "became "+string(want), func(c queue.Call) bool { return c.Status == want })
}

// WaitPending returns the first call, oldest first, that waits for an
// operator.
func (f *Fixture) WaitPending() queue.Call {
	f.T.Helper()
	c, ok := WaitFor(f.Queue, func(c queue.Call) bool { return c.Status == queue.Pending })
	if !ok {
		f.T.Fatal("no call became pending")
	}
	return c
}

// WaitFor subscribes to q and returns the first call, in the snapshot
// (oldest first) or in a later lifecycle event, for which cond holds; ok is
// false after Timeout. It is for any test holding a queue.
func WaitFor(q *queue.Queue, cond func(queue.Call) bool) (c queue.Call, ok bool) {
	sub := q.Subscribe()
	defer sub.Close()
	for _, c := range sub.Snapshot().Calls {
		if cond(c) {
			return c, true
		}
	}
	deadline := time.NewTimer(Timeout)
	defer deadline.Stop()
	for {
		select {
		case ev, open := <-sub.Events():
			if !open {
				return queue.Call{}, false
			}
			if ev.Kind != queue.EventOutput && cond(ev.Call) {
				return ev.Call, true
			}
		case <-deadline.C:
			return queue.Call{}, false
		}
	}
}
