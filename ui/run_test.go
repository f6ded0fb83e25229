package ui

import (
	"context"
	"io"
	"strings"
	"sync"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/assent-sh/assent/queue"
)

// runConsole starts Run with keys read from a pipe, as from a terminal.
func runConsole(t *testing.T, ctx context.Context, o Options, opts ...tea.ProgramOption) (keys io.Writer, done <-chan error) {
	t.Helper()
	r, w := io.Pipe()
	ch := make(chan error, 1)
	opts = append([]tea.ProgramOption{tea.WithInput(r), tea.WithOutput(io.Discard), tea.WithWindowSize(80, 24),
		tea.WithoutSignals()}, opts...)
	go func() { ch <- Run(ctx, o, opts...) }()
	t.Cleanup(func() { r.Close() })
	return w, ch
}

func waitRun(t *testing.T, done <-chan error) error {
	t.Helper()
	select {
	case err := <-done:
		return err
	case <-time.After(10 * time.Second):
		t.Fatal("Run did not return")
		return nil
	}
}

// TestRun_QuitKeyClosesTheQueue runs the whole console and quits it with
// a real key press.
func TestRun_QuitKeyClosesTheQueue(t *testing.T) {
	f := newFixture(t, nil)
	seen := make(chan struct{})
	var once sync.Once
	keys, done := runConsole(t, t.Context(), Options{Queue: f.Queue}, tea.WithFilter(func(_ tea.Model, msg tea.Msg) tea.Msg {
		if _, ok := msg.(snapshotMsg); ok {
			once.Do(func() { close(seen) })
		}
		return msg
	}))
	<-seen
	if _, err := keys.Write([]byte("q")); err != nil {
		t.Fatal(err)
	}
	if err := waitRun(t, done); err != nil {
		t.Fatalf("Run: %v", err)
	}
	if _, err := f.Queue.Submit(t.Context(), queue.Request{Tool: f.Config().Tool("look"), Args: map[string]any{"what": "x"}}); err != queue.ErrClosed {
		t.Errorf("submit after quitting: %v, want ErrClosed", err)
	}
}

// TestRun_ContextEnds returns without closing the queue: that is the
// caller's to do.
func TestRun_ContextEnds(t *testing.T) {
	f := newFixture(t, nil)
	ctx, cancel := context.WithCancel(t.Context())
	_, done := runConsole(t, ctx, Options{Queue: f.Queue})
	ch := f.submit("grep_search", grepArgs)
	time.Sleep(50 * time.Millisecond)
	cancel()
	if err := waitRun(t, done); err != nil {
		t.Fatalf("Run: %v", err)
	}
	if c, err := f.Queue.Call(1); err != nil || c.Status != queue.Pending {
		t.Errorf("the call is %s (%v), want still pending", c.Status, err)
	}
	if err := f.Queue.Deny(1, "done"); err != nil {
		t.Fatal(err)
	}
	f.result(ch)
}

// TestRun_AppliesAConfirmedChange sends a change through Options.Changes
// and confirms it with the enter key.
func TestRun_AppliesAConfirmedChange(t *testing.T) {
	f := newFixture(t, nil)
	changes := make(chan Change)
	applied := make(chan struct{})
	shown := make(chan struct{})
	keys, done := runConsole(t, t.Context(), Options{Queue: f.Queue, Changes: changes, Grace: -1},
		tea.WithFilter(func(_ tea.Model, msg tea.Msg) tea.Msg {
			if _, ok := msg.(changeMsg); ok {
				defer close(shown)
			}
			return msg
		}))
	changes <- Change{Summary: []string{"+ tool fetch"}, Apply: func() error { close(applied); return nil }}
	<-shown
	if _, err := keys.Write([]byte("\r")); err != nil {
		t.Fatal(err)
	}
	select {
	case <-applied:
	case <-time.After(10 * time.Second):
		t.Fatal("enter did not apply the change")
	}
	if _, err := keys.Write([]byte("q")); err != nil {
		t.Fatal(err)
	}
	if err := waitRun(t, done); err != nil {
		t.Fatalf("Run: %v", err)
	}
}

// TestRun_HonoursNoColor draws without styles when NO_COLOR is set.
func TestRun_HonoursNoColor(t *testing.T) {
	t.Setenv("NO_COLOR", "1")
	f := newFixture(t, nil)
	plain := make(chan bool, 1)
	var once sync.Once
	keys, done := runConsole(t, t.Context(), Options{Queue: f.Queue}, tea.WithFilter(func(m tea.Model, msg tea.Msg) tea.Msg {
		if _, ok := msg.(snapshotMsg); ok {
			once.Do(func() { plain <- !strings.ContainsRune(m.(Model).View().Content, 0x1b) })
		}
		return msg
	}))
	if !<-plain {
		t.Error("the screen has escape sequences with NO_COLOR set")
	}
	if _, err := keys.Write([]byte("q")); err != nil {
		t.Fatal(err)
	}
	if err := waitRun(t, done); err != nil {
		t.Fatalf("Run: %v", err)
	}
}

// TestFeeder_SnapshotThenEvents sends the snapshot first, then each event
// in order, and stops when told.
func TestFeeder_SnapshotThenEvents(t *testing.T) {
	f := newFixture(t, nil)
	f.Runner.Expect("uname", "one").Stdout("1\n")
	f.result(f.submit("look", map[string]any{"what": "one"}))
	msgs := make(chan tea.Msg, 100)
	stop := startFeeder(t.Context(), f.Queue, nil, func(m tea.Msg) { msgs <- m })
	first := <-msgs
	snap, ok := first.(snapshotMsg)
	if !ok || len(snap.snap.Calls) != 1 || string(snap.snap.Output[1][0].Data) != "1\n" {
		t.Fatalf("first message %#v, want the snapshot with call 1 and its output", first)
	}
	id, ch := f.submit("grep_search", grepArgs), queue.ID(2)
	ev := (<-msgs).(eventMsg)
	if ev.ev.Call.ID != ch || ev.ev.Kind != queue.EventPending {
		t.Errorf("next message %+v, want call 2 pending", ev.ev)
	}
	stop()
	if err := f.Queue.Deny(2, "stop"); err != nil {
		t.Fatal(err)
	}
	f.result(id)
	select {
	case m := <-msgs:
		t.Errorf("message after stop: %#v", m)
	case <-time.After(50 * time.Millisecond):
	}
}

// TestFeeder_SubscriptionEnds reports a subscription that ends while the
// console still runs as fatal.
func TestFeeder_SubscriptionEnds(t *testing.T) {
	f := newFixture(t, nil)
	sub := f.Queue.Subscribe()
	msgs := make(chan tea.Msg, 10)
	done := make(chan struct{})
	go func() { defer close(done); feed(t.Context(), f.Queue, sub, nil, func(m tea.Msg) { msgs <- m }) }()
	<-msgs // the snapshot
	sub.Close()
	<-done
	if _, ok := (<-msgs).(fatalMsg); !ok {
		t.Error("no fatal message when the subscription ended")
	}
}
