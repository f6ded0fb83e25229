package queue_test

import (
	"bytes"
	"context"
	"testing"
	"time"

	"github.com/assent-sh/assent/exec"
	"github.com/assent-sh/assent/queue"
)

func TestSubscribe_LateSubscriberSeesEverything(t *testing.T) {
	f := newFixture(t, nil)
	f.Runner.Expect("uname", "x").Stdout("first\n")
	if _, err := f.Queue.Submit(context.Background(), f.Request("look", map[string]any{"what": "x"})); err != nil {
		t.Fatal(err)
	}
	res := f.SubmitAsync(context.Background(), f.Request("change", map[string]any{"file": "a", "token": "s3cr3t-token"}))
	f.WaitStatus(2, queue.Pending)
	if _, err := f.Queue.Submit(context.Background(), f.Request("burn", map[string]any{"x": "y"})); err != nil {
		t.Fatal(err)
	}
	sub := f.Queue.Subscribe()
	defer sub.Close()
	snap := sub.Snapshot()
	if len(snap.Calls) != 3 {
		t.Fatalf("snapshot has %d calls", len(snap.Calls))
	}
	if snap.Calls[0].Status != queue.Done || snap.Calls[1].Status != queue.Pending || snap.Calls[2].Status != queue.Denied {
		t.Fatalf("statuses %s %s %s", snap.Calls[0].Status, snap.Calls[1].Status, snap.Calls[2].Status)
	}
	if out := snap.Output[1]; len(out) != 1 || string(out[0].Data) != "first\n" || out[0].Stream != exec.Stdout {
		t.Fatalf("output tail %+v", out)
	}
	if p, r, e := snap.Counts(); p != 1 || r != 0 || e != 2 {
		t.Fatalf("counts %d %d %d", p, r, e)
	}
	if err := f.Queue.Deny(2, "no"); err != nil {
		t.Fatal(err)
	}
	<-res
	if ev := nextEvent(t, sub); ev.Kind != queue.EventDecided || ev.Call.ID != 2 || ev.Call.Status != queue.Denied {
		t.Fatalf("event after snapshot %+v", ev)
	}
}

// TestSubscribe_SlowSubscriber floods output while a subscriber reads
// nothing: calls finish without waiting for it, it later receives every
// lifecycle event in order, and output delivered plus output skipped is
// all the output there was.
func TestSubscribe_SlowSubscriber(t *testing.T) {
	f := newFixture(t, nil)
	run := f.Runner.Expect("uname", "x")
	chunk := bytes.Repeat([]byte("y"), 1000)
	const chunks = 20000 // 20 MB, five times the subscriber's bound
	for range chunks {
		run.Output = append(run.Output, exec.Chunk{Stream: exec.Stdout, Data: chunk, Time: time.Now()})
	}
	f.Runner.Expect("uname", "z").Stdout("after\n")
	sub := f.Queue.Subscribe()
	defer sub.Close()
	done := make(chan struct{})
	go func() {
		defer close(done)
		for _, what := range []string{"x", "z"} {
			if _, err := f.Queue.Submit(context.Background(), f.Request("look", map[string]any{"what": what})); err != nil {
				t.Error(err)
			}
		}
	}()
	select {
	case <-done:
	case <-time.After(20 * time.Second):
		t.Fatal("a subscriber that reads nothing held up the calls")
	}
	var kinds []queue.EventKind
	var delivered, skipped int64
	for len(kinds) < 6 {
		ev := nextEvent(t, sub)
		if ev.Call.ID == 1 {
			skipped += ev.Skipped
		}
		if ev.Kind == queue.EventOutput {
			if ev.Call.ID == 1 {
				delivered += int64(len(ev.Output.Data))
			}
			continue
		}
		kinds = append(kinds, ev.Kind)
	}
	want := []queue.EventKind{queue.EventDecided, queue.EventStarted, queue.EventFinished, queue.EventDecided, queue.EventStarted, queue.EventFinished}
	for i, k := range want {
		if kinds[i] != k {
			t.Fatalf("lifecycle events %v, want %v", kinds, want)
		}
	}
	if skipped == 0 || delivered+skipped != chunks*1000 {
		t.Fatalf("delivered %d + skipped %d, want %d with some skipped", delivered, skipped, chunks*1000)
	}
}

func TestHistory_KeepsTheNewestEndedCalls(t *testing.T) {
	f := newFixture(t, func(o *queue.Options) { o.History = 4 })
	f.Runner.Expect("uname", "x").Repeat = true
	for range 12 {
		if _, err := f.Queue.Submit(context.Background(), f.Request("look", map[string]any{"what": "x"})); err != nil {
			t.Fatal(err)
		}
	}
	calls := f.Queue.Snapshot().Calls
	// Trimmed in batches: between History and a quarter more are kept,
	// always the newest.
	if len(calls) < 4 || len(calls) > 5 || calls[len(calls)-1].ID != 12 {
		t.Fatalf("%d calls kept, last %v", len(calls), calls[len(calls)-1].ID)
	}
	for i, c := range calls {
		if want := queue.ID(12 - len(calls) + 1 + i); c.ID != want {
			t.Fatalf("kept %v at %d, want %v", c.ID, i, want)
		}
	}
}

// TestSubscribe_AttachedWhileRunning: a subscriber that attaches while an
// unwatched call runs still receives its output before its end.
func TestSubscribe_AttachedWhileRunning(t *testing.T) {
	f := newFixture(t, nil)
	run := f.Runner.Expect("uname", "x").Stdout("late output\n")
	run.Hold, run.Started = make(chan struct{}), make(chan struct{})
	res := f.SubmitAsync(context.Background(), f.Request("look", map[string]any{"what": "x"}))
	<-run.Started
	sub := f.Queue.Subscribe()
	defer sub.Close()
	close(run.Hold)
	<-res
	var out []byte
	for {
		ev := nextEvent(t, sub)
		if ev.Kind == queue.EventOutput {
			out = append(out, ev.Output.Data...)
		}
		if ev.Kind == queue.EventFinished {
			break
		}
	}
	if string(out) != "late output\n" {
		t.Fatalf("output before the end: %q", out)
	}
}
