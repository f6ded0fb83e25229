package queue_test

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/assent-sh/assent/policy"
	"github.com/assent-sh/assent/queue"
)

// TestResolve_FirstDecisionWins races an approve, a deny, an edit, the
// client's cancel and the approval timeout on the same pending call, many
// times: exactly one wins, the losers are told so, and the outcome is the
// winner's.
func TestResolve_FirstDecisionWins(t *testing.T) {
	f := newFixture(t, func(o *queue.Options) { o.ApprovalTimeout = 2 * time.Millisecond })
	f.Runner.Expect("touch", "--", f.WorkDir+"/a").Repeat = true
	f.Runner.Expect("touch", "--", f.WorkDir+"/edited").Repeat = true
	sub := f.Queue.Subscribe()
	defer sub.Close()
	winners := map[string]int{}
	for i := range 300 {
		ctx, cancel := context.WithCancel(context.Background())
		res := f.SubmitAsync(ctx, f.Request("write", map[string]any{"file": "a"}))
		var id queue.ID
		for id == 0 {
			if ev := nextEvent(t, sub); ev.Kind == queue.EventPending {
				id = ev.Call.ID
			}
		}
		actions := map[string]func() error{
			"approve": func() error { return f.Queue.Approve(id) },
			"deny":    func() error { return f.Queue.Deny(id, "raced") },
			"edit":    func() error { return f.Queue.ApproveEdited(id, []string{"touch", "--", f.WorkDir + "/edited"}, "") },
		}
		var wg sync.WaitGroup
		var mu sync.Mutex
		won := []string{}
		start := make(chan struct{})
		for name, act := range actions {
			wg.Add(1)
			go func() {
				defer wg.Done()
				<-start
				err := act()
				var re *queue.ResolvedError
				switch {
				case err == nil:
					mu.Lock()
					won = append(won, name)
					mu.Unlock()
				case !errors.As(err, &re):
					t.Errorf("round %d: %s lost with %v, want a ResolvedError", i, name, err)
				}
			}()
		}
		if i%2 == 0 {
			wg.Add(1)
			go func() { defer wg.Done(); <-start; cancel() }()
		}
		close(start)
		wg.Wait()
		r := <-res
		cancel()
		c := r.Out.Call
		if len(won) > 1 {
			t.Fatalf("round %d: %v all won", i, won)
		}
		winner := string(c.Decider)
		if len(won) == 1 {
			winner = won[0]
			want := map[string]queue.Status{"approve": queue.Done, "deny": queue.Denied, "edit": queue.Done}[winner]
			if c.Status != want || c.Decider != queue.ByOperator {
				t.Fatalf("round %d: %s won but the call is %s by %s", i, winner, c.Status, c.Decider)
			}
			if winner == "edit" && c.Original == nil || winner == "approve" && c.Original != nil {
				t.Fatalf("round %d: %s won but the command is %v (original %v)", i, winner, c.Command, c.Original)
			}
		} else if !(c.Status == queue.Cancelled && c.Decider == queue.ByClient) && !(c.Status == queue.Denied && c.Decider == queue.ByTimeout) {
			t.Fatalf("round %d: no operator action won, yet the call is %s by %s", i, c.Status, c.Decider)
		}
		winners[winner]++
	}
	t.Logf("winners over 300 rounds: %v", winners)
}

// TestSubmit_ManyConcurrentCalls sends 1000 calls at once, a third each
// auto-approved, asking and denied, with an operator approving from a
// subscription: each Submit returns exactly once with the right outcome,
// and the limits hold throughout.
func TestSubmit_ManyConcurrentCalls(t *testing.T) {
	const maxRunning, maxPending = 8, 40
	f := newFixture(t, func(o *queue.Options) { o.MaxRunning, o.MaxPending = maxRunning, maxPending })
	var running, peak atomic.Int64
	f.Runner.Expect("uname", "x").Repeat = true
	f.Runner.Expect("touch", "--", f.WorkDir+"/a").Repeat = true
	sub := f.Queue.Subscribe()
	ctx, stop := context.WithCancel(context.Background())
	approver := make(chan struct{})
	go func() {
		defer close(approver)
		for {
			select {
			case ev := <-sub.Events():
				switch ev.Kind {
				case queue.EventPending:
					if err := f.Queue.Approve(ev.Call.ID); err != nil {
						t.Errorf("approve %s: %v", ev.Call.ID, err)
					}
				case queue.EventStarted:
					if n := running.Add(1); n > peak.Load() {
						peak.Store(n)
					}
				case queue.EventFinished:
					running.Add(-1)
				}
			case <-ctx.Done():
				return
			}
		}
	}()
	kinds := []queue.Request{
		f.Request("look", map[string]any{"what": "x"}),
		f.Request("change", map[string]any{"file": "a", "token": "s3cr3t-token"}),
		f.Request("burn", map[string]any{"x": "y"}),
	}
	results := make(chan string, 1000)
	var wg sync.WaitGroup
	for i := range 1000 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			out, err := f.Queue.Submit(context.Background(), kinds[i%3])
			var le *queue.LimitError
			switch {
			case errors.As(err, &le):
				results <- "limit"
			case err != nil:
				results <- "error: " + err.Error()
			default:
				results <- fmt.Sprintf("%s/%s", out.Call.Status, out.Call.Decider)
			}
		}()
	}
	wg.Wait()
	stop()
	<-approver
	sub.Close()
	close(results)
	count := map[string]int{}
	for r := range results {
		count[r]++
	}
	total := 0
	for k, n := range count {
		switch k {
		case "done/rule", "done/operator", "denied/rule", "limit":
		default:
			t.Errorf("%d calls ended as %q", n, k)
		}
		total += n
	}
	if total != 1000 || count["denied/rule"] != 333 {
		t.Fatalf("results %v", count)
	}
	if peak.Load() > maxRunning {
		t.Fatalf("%d calls ran at once, limit %d", peak.Load(), maxRunning)
	}
	t.Logf("outcomes %v, peak running %d", count, peak.Load())
	snap := f.Queue.Snapshot()
	if p, r, _ := snap.Counts(); p != 0 || r != 0 {
		t.Fatalf("%d pending and %d running left", p, r)
	}
}

// TestClose_RacesWithNewCalls closes the queue while calls are arriving:
// every call that got in is settled (pending ones denied, running ones
// killed) and Close returns; none is left waiting or running.
func TestClose_RacesWithNewCalls(t *testing.T) {
	for round := range 30 {
		f := newFixture(t, nil)
		run := f.Runner.Expect("uname", "x")
		run.Repeat, run.Hold = true, make(chan struct{})
		var wg sync.WaitGroup
		for i := range 8 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				req := f.Request("change", map[string]any{"file": "a", "token": "s3cr3t-token"})
				if i%2 == 0 {
					req = f.Request("look", map[string]any{"what": "x"})
				}
				_, _ = f.Queue.Submit(context.Background(), req)
			}()
		}
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		if err := f.Queue.Close(ctx, "console closed"); err != nil {
			t.Fatalf("round %d: close: %v", round, err)
		}
		cancel()
		wg.Wait()
		for _, c := range f.Queue.Snapshot().Calls {
			if !c.Status.Ended() {
				t.Fatalf("round %d: call %s left %s after Close", round, c.ID, c.Status)
			}
			if c.Status == queue.Done && !c.Result.Cancelled {
				t.Fatalf("round %d: call %s ran to its end after Close", round, c.ID)
			}
		}
	}
}

// An operator may act on a call the moment a snapshot shows it: its policy
// input must be in place when it becomes visible, not set after.
func TestApproveRemember_OnACallJustShown(t *testing.T) {
	f := newFixture(t, nil)
	for i := range 20 {
		id := queue.ID(i + 1)
		f.Runner.Expect("touch", "--", f.WorkDir+"/a")
		res := f.SubmitAsync(context.Background(), f.Request("change", map[string]any{"file": "a", "token": "t"}))
		for {
			rule := policy.Narrowest(policy.Input{Tool: "change"})
			if err := f.Queue.ApproveRemember(id, rule, false); !errors.Is(err, queue.ErrUnknownCall) {
				break
			}
			runtime.Gosched()
		}
		f.WaitStatus(id, queue.Pending)
		if err := f.Queue.Approve(id); err != nil {
			t.Fatal(err)
		}
		<-res
	}
}
