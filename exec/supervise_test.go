//go:build unix

package exec

import (
	"bytes"
	"context"
	"sync"
	"testing"
	"time"
)

func TestLocalRun_EndsTheSameWayOnTimeoutAndCancel(t *testing.T) {
	// slack is what a run may take beyond its timeout (or the cancel) when
	// the child dies on SIGTERM: signal delivery and reaping, generously, as
	// the machine may be busy with other work.
	const slack = 3 * time.Second
	sleep := Command{Path: "/bin/sleep", Argv: []string{"sleep", "10"}}
	tests := []struct {
		name          string
		cmd           Command
		timeout       time.Duration
		cancelOnReady bool
		wantTimedOut  bool
		wantCancelled bool
		wantCode      int
		wantSig       string
	}{
		{name: "timeout of 100 ms", cmd: sleep, timeout: 100 * time.Millisecond,
			wantTimedOut: true, wantCode: 143, wantSig: "SIGTERM"},
		{name: "timeout below the minimum is raised to it", cmd: sleep, timeout: time.Millisecond,
			wantTimedOut: true, wantCode: 143, wantSig: "SIGTERM"},
		{name: "cancel while running", cmd: helperCmd(t, "ready"), timeout: time.Minute, cancelOnReady: true,
			wantCancelled: true, wantCode: 143, wantSig: "SIGTERM"},
		{name: "cancel, and the child exits cleanly within the grace", cmd: helperCmd(t, "termexit"),
			timeout: time.Minute, cancelOnReady: true, wantCancelled: true, wantCode: 3},
	}
	l := NewLocal(Options{Grace: 5 * time.Second})
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			var mu sync.Mutex
			var cancelledAt time.Time
			var out func(Chunk)
			if tt.cancelOnReady {
				out = func(c Chunk) {
					if bytes.Contains(c.Data, []byte("ready\n")) {
						mu.Lock()
						cancelledAt = time.Now()
						mu.Unlock()
						cancel()
					}
				}
			}
			cmd := tt.cmd
			cmd.Timeout = tt.timeout
			start := time.Now()
			res := l.Run(ctx, cmd, out)
			end := time.Now()

			if res.TimedOut != tt.wantTimedOut || res.Cancelled != tt.wantCancelled {
				t.Errorf("TimedOut %v, Cancelled %v; want %v, %v", res.TimedOut, res.Cancelled, tt.wantTimedOut, tt.wantCancelled)
			}
			if res.ExitCode != tt.wantCode || res.Signal != tt.wantSig {
				t.Errorf("exit %d, signal %q; want %d, %q", res.ExitCode, res.Signal, tt.wantCode, tt.wantSig)
			}
			from := start.Add(l.Timeout(tt.timeout))
			if tt.cancelOnReady {
				mu.Lock()
				from = cancelledAt
				mu.Unlock()
				if from.IsZero() {
					t.Fatalf("the child never said it was ready; stdout %q stderr %q", res.Stdout.Data, res.Stderr.Data)
				}
			}
			if took := end.Sub(from); took < 0 || took > slack {
				t.Errorf("Run returned %v after the %s, want within [0, %v]", took, map[bool]string{true: "cancel", false: "timeout"}[tt.cancelOnReady], slack)
			}
		})
	}
}

func TestLocalTimeout_Clamped(t *testing.T) {
	tests := []struct {
		name string
		opts Options
		in   time.Duration
		want time.Duration
	}{
		{name: "zero means the default", in: 0, want: 30 * time.Second},
		{name: "within range is kept", in: 2 * time.Second, want: 2 * time.Second},
		{name: "below the minimum is raised", in: time.Millisecond, want: 100 * time.Millisecond},
		{name: "above the ceiling is lowered", in: 10 * time.Minute, want: 5 * time.Minute},
		{name: "the operator may raise the ceiling", opts: Options{MaxTimeout: time.Hour}, in: 10 * time.Minute, want: 10 * time.Minute},
		{name: "a tiny default is raised too", opts: Options{DefaultTimeout: time.Millisecond}, in: 0, want: 100 * time.Millisecond},
		{name: "a default over the ceiling is lowered", opts: Options{DefaultTimeout: time.Hour}, in: 0, want: 5 * time.Minute},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := NewLocal(tt.opts).Timeout(tt.in); got != tt.want {
				t.Errorf("Timeout(%v) = %v, want %v", tt.in, got, tt.want)
			}
		})
	}
}

func TestLocalMaxOutput_Default(t *testing.T) {
	tests := []struct {
		name string
		opts Options
		in   int64
		want int64
	}{
		{name: "zero means 1 MiB", in: 0, want: 1 << 20},
		{name: "negative means the default", in: -5, want: 1 << 20},
		{name: "a declared cap is kept", in: 10, want: 10},
		{name: "the operator's default", opts: Options{MaxOutput: 4096}, in: 0, want: 4096},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := NewLocal(tt.opts).MaxOutput(tt.in); got != tt.want {
				t.Errorf("MaxOutput(%d) = %d, want %d", tt.in, got, tt.want)
			}
		})
	}
}
