//go:build unix

package exec

import (
	"bytes"
	"context"
	"runtime"
	"strconv"
	"sync"
	"testing"
	"time"
)

// floodMemoryBound is how far the heap may grow over its level before a
// flood. A run keeps at most its cap per stream plus read buffers (a few
// MiB); a runner that buffered the flood would need a gigabyte.
const floodMemoryBound = 24 << 20

func TestLocalRun_FloodIsCappedInBoundedMemory(t *testing.T) {
	const gig = 1 << 30
	const limit = 1 << 20
	tests := []struct {
		name       string
		streams    string
		oneLine    bool
		overflow   Overflow
		live       bool
		wantOut    bool
		wantErr    bool
		wantKilled bool
	}{
		{name: "1 GiB of lines on stdout", streams: "stdout", wantOut: true},
		{name: "1 GiB on each stream at once", streams: "both", wantOut: true, wantErr: true},
		{name: "one 1 GiB line on stdout", streams: "stdout", oneLine: true, wantOut: true},
		{name: "1 GiB on stderr watched live", streams: "stderr", live: true, wantErr: true},
		{name: "kill on overflow", streams: "stdout", overflow: Kill, wantOut: true, wantKilled: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			mode := "lines"
			if tt.oneLine {
				mode = "oneline"
			}
			cmd := helperCmd(t, "flood", tt.streams, strconv.Itoa(gig), mode)
			cmd.MaxOutput, cmd.OnOverflow, cmd.Timeout = limit, tt.overflow, time.Minute
			var live liveLog
			var out func(Chunk)
			if tt.live {
				out = live.add
			}
			l := NewLocal(Options{Grace: 500 * time.Millisecond})

			var res Result
			peak := heapPeak(func() { res = l.Run(context.Background(), cmd, out) })

			t.Logf("%v, heap grew by at most %.1f MiB", res.Duration, float64(peak)/(1<<20))
			if peak > floodMemoryBound {
				t.Errorf("heap grew by %d bytes during the flood, want at most %d", peak, floodMemoryBound)
			}
			if res.StartError != "" {
				t.Fatalf("start error: %s", res.StartError)
			}
			block := floodBlock(tt.oneLine)
			check := func(name string, o Output, flooded bool) {
				if !flooded {
					if o.Bytes != 0 || len(o.Data) != 0 || o.Truncated {
						t.Errorf("%s: %d bytes written, %d kept, truncated %v; want nothing", name, o.Bytes, len(o.Data), o.Truncated)
					}
					return
				}
				wantBytes := int64(gig)
				if tt.wantKilled {
					if o.Bytes <= limit || o.Bytes >= gig {
						t.Errorf("%s: %d bytes written, want more than the cap and less than the flood", name, o.Bytes)
					}
					wantBytes = o.Bytes
				}
				if o.Bytes != wantBytes || !o.Truncated || len(o.Data) != limit {
					t.Errorf("%s: %d bytes written, %d kept, truncated %v; want %d, %d, true",
						name, o.Bytes, len(o.Data), o.Truncated, wantBytes, limit)
				}
				if !bytes.Equal(o.Data, block[:min(len(o.Data), len(block))]) {
					t.Errorf("%s: kept bytes are not the start of the stream", name)
				}
			}
			check("stdout", res.Stdout, tt.wantOut)
			check("stderr", res.Stderr, tt.wantErr)
			if tt.wantKilled {
				if !res.OverflowKilled || res.Signal != "SIGTERM" || res.ExitCode != 143 {
					t.Errorf("overflow kill: OverflowKilled %v, signal %q, exit %d; want true, SIGTERM, 143",
						res.OverflowKilled, res.Signal, res.ExitCode)
				}
			} else if res.ExitCode != 0 || res.OverflowKilled {
				t.Errorf("exit %d, OverflowKilled %v; want 0, false", res.ExitCode, res.OverflowKilled)
			}
			if tt.live {
				if err := live.matches(Stderr, res.Stderr.Data); err != nil {
					t.Errorf("live stderr: %v", err)
				}
			}
		})
	}
}

// heapPeak runs f and returns how far HeapInuse rose above its level before
// f, sampled every few milliseconds while f runs.
func heapPeak(f func()) uint64 {
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	base := ms.HeapInuse
	var peak uint64
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Go(func() {
		tick := time.NewTicker(5 * time.Millisecond)
		defer tick.Stop()
		for {
			var ms runtime.MemStats
			runtime.ReadMemStats(&ms)
			peak = max(peak, ms.HeapInuse)
			select {
			case <-done:
				return
			case <-tick.C:
			}
		}
	})
	f()
	close(done)
	wg.Wait()
	if peak < base {
		return 0
	}
	return peak - base
}
