package exec

import (
	"context"
	"sync/atomic"
	"testing"
	"time"
)

func TestLocalRun_SlowNotice(t *testing.T) {
	// A run that lasts its Slow's After gives the notice once, while it
	// runs; one that ends before gives none. Alone the runner counts After
	// in its own poll; read through the poller, from a timer.
	for _, way := range []struct {
		name string
		sim  simulated
	}{{"alone", simulated{}}, {"polled", simulated{busy: true}}} {
		l := NewLocal(Options{})
		l.simulate = way.sim
		t.Cleanup(func() { l.Close() })
		for _, tt := range []struct {
			name  string
			cmd   Command
			after time.Duration
			want  bool
		}{
			{"slow", helperCmd(t, "sleep-exit", "300"), 20 * time.Millisecond, true},
			{"quick", helperCmd(t, "exit", "0"), 5 * time.Second, false},
		} {
			t.Run(way.name+"/"+tt.name, func(t *testing.T) {
				var given atomic.Int32
				var during atomic.Bool
				done := make(chan struct{})
				s := NewSlow(tt.after, func() {
					given.Add(1)
					select {
					case <-done:
					default:
						during.Store(true)
					}
				})
				res := l.Run(WithSlow(context.Background(), s), tt.cmd, nil)
				close(done)
				if res.ExitCode != 0 {
					t.Fatalf("exit %d: %s %s", res.ExitCode, res.StartError, res.Stderr.Data)
				}
				if n := given.Load(); tt.want && (n != 1 || !during.Load()) || !tt.want && n != 0 {
					t.Errorf("notice given %d times (during the run: %v)", n, during.Load())
				}
				s.Give()
				if n := given.Load(); n != 1 {
					t.Errorf("after Give: %d notices, want 1", n)
				}
			})
		}
	}
}
