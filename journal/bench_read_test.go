package journal

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime/metrics"
	"sync"
	"testing"
	"time"
)

// peakHeap samples the live heap until stop is called, and returns the
// highest it saw.
func peakHeap() (stop func() uint64) {
	var (
		peak uint64
		wg   sync.WaitGroup
		done = make(chan struct{})
	)
	sample := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	wg.Go(func() {
		t := time.NewTicker(time.Millisecond)
		defer t.Stop()
		for {
			metrics.Read(sample)
			peak = max(peak, sample[0].Value.Uint64())
			select {
			case <-done:
				return
			case <-t.C:
			}
		}
	})
	return func() uint64 {
		close(done)
		wg.Wait()
		return peak
	}
}

// BenchmarkCallReader_1GB streams every call of a 1 GB journal, as
// `assent log` does, and reports the peak live heap (≤ 50 MB is the goal)
// and the throughput; then verifies it all. The journal is generated once
// per run.
//
//	go test -run '^$' -bench 'BenchmarkCallReader_1GB' -benchtime 1x -count 3 ./journal/
func BenchmarkCallReader_1GB(b *testing.B) {
	if testing.Short() {
		b.Skip("generates a 1 GB journal")
	}
	dir := filepath.Join(b.TempDir(), "journal")
	file := generate(b, dir, bigJournal)
	info, _ := os.Stat(file)
	for _, events := range []bool{false, true} {
		b.Run(fmt.Sprintf("events=%v", events), func(b *testing.B) {
			var peak uint64
			for range b.N {
				stop := peakHeap()
				calls := 0
				c, err := NewCallReader(dir, CallOptions{Events: events})
				if err != nil {
					b.Fatal(err)
				}
				for {
					_, err := c.Next(context.Background())
					if err == io.EOF {
						break
					}
					if err != nil {
						b.Fatal(err)
					}
					calls++
				}
				c.Close()
				peak = max(peak, stop())
				if calls < 500_000 {
					b.Fatalf("%d calls read", calls)
				}
			}
			b.ReportMetric(float64(peak)/(1<<20), "peak-heap-MB")
			b.ReportMetric(float64(info.Size())/(1<<20)/(b.Elapsed().Seconds()/float64(b.N)), "MB/s")
		})
	}
	// `assent log --verify` walks all of it: every hash and every seal.
	b.Run("verify", func(b *testing.B) {
		for range b.N {
			if rep, err := Verify(dir); err != nil || len(rep.Faults) != 0 {
				b.Fatalf("Verify = %+v, %v", rep.Faults, err)
			}
		}
		b.ReportMetric(float64(info.Size())/(1<<20)/(b.Elapsed().Seconds()/float64(b.N)), "MB/s")
	})
}
