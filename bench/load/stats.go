package main

import (
	"fmt"
	"io"
	"os"
	"runtime"
	"runtime/pprof"
	"slices"
	"text/tabwriter"
	"time"
)

// samples are the latencies of calls and the wall time they took.
type samples struct {
	lat  []time.Duration
	wall time.Duration
}

func (s *samples) add(o samples) {
	s.lat = append(s.lat, o.lat...)
	s.wall += o.wall
}

// percentile returns the p-th percentile (nearest rank) of sorted.
func percentile(sorted []time.Duration, p float64) time.Duration {
	if len(sorted) == 0 {
		return 0
	}
	i := int(p/100*float64(len(sorted))+0.5) - 1
	return sorted[min(max(i, 0), len(sorted)-1)]
}

// report prints one line per target; the ratio compares each p50 with the
// first target's (bare exec when it is measured).
func report(w io.Writer, targets []target, results []samples) {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "target\tp50\tp95\tp99\tcalls/s\tp50 vs "+targets[0].name+"\t")
	var base time.Duration
	for i, t := range targets {
		lat := slices.Clone(results[i].lat)
		slices.Sort(lat)
		p50 := percentile(lat, 50)
		if i == 0 {
			base = p50
		}
		rate := float64(len(lat)) / results[i].wall.Seconds()
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%.0f\t%.2f×\t\n", t.name, ms(p50), ms(percentile(lat, 95)),
			ms(percentile(lat, 99)), rate, float64(p50)/float64(base))
	}
	tw.Flush()
}

func ms(d time.Duration) string { return fmt.Sprintf("%.3f ms", float64(d)/float64(time.Millisecond)) }

func gomaxprocs() int { return runtime.GOMAXPROCS(0) }

// startProfile writes a CPU profile to path until the returned stop.
func startProfile(path string) (stop func(), err error) {
	f, err := os.Create(path)
	if err != nil {
		return nil, err
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		f.Close()
		return nil, err
	}
	return func() {
		pprof.StopCPUProfile()
		f.Close()
	}, nil
}
