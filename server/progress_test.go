package server

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/assent-sh/assent/exec"
	"github.com/assent-sh/assent/queue"
	"github.com/assent-sh/assent/server/servertest"
)

func TestProgress_OutputWhileRunning(t *testing.T) {
	for _, era := range servertest.Eras() {
		t.Run(era.Name, func(t *testing.T) {
			f := newFixture(t, nil)
			hold := make(chan struct{})
			f.Runner.Expect("uname", "p").Stdout("line1\nline2\n").Hold = hold
			var n servertest.Notes
			c := f.inProcess(era.Options, &n)
			done := make(chan *mcp.CallToolResult, 1)
			go func() {
				res, err := servertest.Call(context.Background(), c, "look", map[string]any{"what_thing": "p"}, "tok")
				if err != nil {
					t.Error(err)
				}
				done <- res
			}()
			servertest.WaitFor(t, "output progress", func() bool { return slices.Contains(n.Messages(mcp.MethodNotificationProgress), "line1\nline2") })
			close(hold)
			if res := <-done; res == nil || res.IsError {
				t.Fatalf("result %+v", res)
			}
		})
	}
}

func TestProgress_HeartbeatWhileWaitingForApproval(t *testing.T) {
	for _, era := range servertest.Eras() {
		t.Run(era.Name, func(t *testing.T) {
			f := newFixture(t, nil)
			var n servertest.Notes
			c := f.inProcess(era.Options, &n)
			done := make(chan *mcp.CallToolResult, 1)
			go func() {
				res, _ := servertest.Call(context.Background(), c, "change", map[string]any{"file": "f"}, "tok")
				done <- res
			}()
			id := f.pendingCall()
			servertest.WaitFor(t, "two heartbeats", func() bool {
				m := n.Messages(mcp.MethodNotificationProgress)
				return len(m) >= 3 && m[0] == "waiting for an operator to approve the call" &&
					strings.HasPrefix(m[2], "still waiting for an operator to approve the call (")
			})
			if err := f.Queue.Deny(id, "no"); err != nil {
				t.Fatal(err)
			}
			if res := <-done; res == nil || servertest.Text(res) != "denied by the operator: no" {
				t.Fatalf("result %+v", res)
			}
		})
	}
}

// A call made without a progress token gets no progress notifications: a
// second call, with a token, on the same session shows that notifications
// flow there, and every one that arrived carries the second call's token.
func TestProgress_NoTokenNoNotifications(t *testing.T) {
	f := newFixture(t, nil)
	f.Runner.Expect("uname", "p").Stdout("line\n")
	hold := make(chan struct{})
	f.Runner.Expect("uname", "q").Stdout("line\n").Hold = hold
	var n servertest.Notes
	c := f.inProcess(nil, &n)
	if _, err := servertest.Call(context.Background(), c, "look", map[string]any{"what_thing": "p"}, ""); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() {
		_, err := servertest.Call(context.Background(), c, "look", map[string]any{"what_thing": "q"}, "second")
		done <- err
	}()
	servertest.WaitFor(t, "the second call's progress", func() bool { return len(n.Tokens()) > 0 })
	close(hold)
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	for _, tok := range n.Tokens() {
		if tok != "second" {
			t.Fatalf("progress notifications carry tokens %v; the call without a token got some", n.Tokens())
		}
	}
}

func TestCancel_EndsTheCallInTheQueue(t *testing.T) {
	tests := []struct {
		name   string
		tool   string
		args   map[string]any
		expect func(f *fixture)
		await  func(f *fixture) queue.ID
		check  func(t *testing.T, c queue.Call)
	}{
		{name: "pending call withdrawn", tool: "change", args: map[string]any{"file": "f"},
			await: (*fixture).pendingCall,
			check: func(t *testing.T, c queue.Call) {
				if c.Status != queue.Cancelled || c.Decider != queue.ByClient {
					t.Fatalf("status %s by %s", c.Status, c.Decider)
				}
			}},
		{name: "running call killed", tool: "look", args: map[string]any{"what_thing": "long"},
			expect: func(f *fixture) { f.Runner.Expect("uname", "long").Hold = make(chan struct{}) },
			await:  (*fixture).runningCall,
			check: func(t *testing.T, c queue.Call) {
				if c.Status != queue.Done || c.Result == nil || !c.Result.Cancelled {
					t.Fatalf("status %s result %+v", c.Status, c.Result)
				}
			}},
	}
	for _, era := range servertest.Eras() {
		t.Run(era.Name, func(t *testing.T) {
			for _, tc := range tests {
				t.Run(tc.name, func(t *testing.T) {
					f := newFixture(t, nil)
					if tc.expect != nil {
						tc.expect(f)
					}
					c := f.inProcess(era.Options, nil)
					ctx, cancel := context.WithCancel(context.Background())
					errc := make(chan error, 1)
					go func() {
						_, err := servertest.Call(ctx, c, tc.tool, tc.args, "")
						errc <- err
					}()
					id := tc.await(f)
					cancel()
					// In process, the server answers the cancelled request
					// itself (its context is the caller's); over the wire
					// the client stops waiting. Either way, one answer.
					if err := <-errc; err != nil && !errors.Is(err, context.Canceled) {
						t.Fatalf("call error %v", err)
					}
					servertest.WaitFor(t, "the call to end", func() bool {
						got, err := f.Queue.Call(id)
						return err == nil && got.Status.Ended()
					})
					got, _ := f.Queue.Call(id)
					tc.check(t, got)
				})
			}
		})
	}
}

// Output that arrives partway through an interval falls due when that
// interval ends, counted from the last message, not at whatever tick
// comes after: a ticker's phase once merged two lines printed 300 ms apart
// into one message, with a 250 ms interval.
func TestProgress_OutputFallsDueWhenTheIntervalEnds(t *testing.T) {
	const interval, beat = 250 * time.Millisecond, 10 * time.Second
	p := &progress{s: &Server{opts: Options{ProgressInterval: interval, Heartbeat: beat}},
		status: queue.Running, since: time.Now(), fresh: queue.NewTail(keptOutput)}
	now := time.Now()
	p.watch(queue.Event{Kind: queue.EventOutput, Output: &exec.Chunk{Stream: exec.Stdout, Data: []byte("step 2\n")}})
	if msg, wait := p.next(now, 60*time.Millisecond); msg != "" || wait != interval-60*time.Millisecond {
		t.Fatalf("60 ms after the last message: %q, next due in %v; want nothing, due in %v", msg, wait, interval-60*time.Millisecond)
	}
	if msg, wait := p.next(now, interval); msg != "step 2" || wait != beat {
		t.Fatalf("at the interval's end: %q, next due in %v; want \"step 2\", the heartbeat in %v", msg, wait, beat)
	}
	if msg, wait := p.next(now, time.Second); msg != "" || wait != beat-time.Second {
		t.Fatalf("with nothing new: %q, next due in %v; want nothing, the heartbeat in %v", msg, wait, beat-time.Second)
	}
}
