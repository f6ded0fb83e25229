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

// sweepRow is one target's result at one concurrency.
type sweepRow struct {
	name      string
	c         int
	p50       time.Duration
	rate      float64
	p50Ratio  float64 // p50 against the first target's
	rateRatio float64 // calls/s against the first target's
}

// report prints one line per target; the ratios compare each p50 and each
// throughput with the first target's (bare exec when it is measured).
func report(w io.Writer, targets []target, results []samples) []sweepRow {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "target\tp50\tp95\tp99\tcalls/s\tp50 vs "+targets[0].name+"\tcalls/s vs "+targets[0].name+"\t")
	var rows []sweepRow
	for i, t := range targets {
		lat := slices.Clone(results[i].lat)
		slices.Sort(lat)
		row := sweepRow{name: t.name, p50: percentile(lat, 50), rate: float64(len(lat)) / results[i].wall.Seconds()}
		if i > 0 {
			row.p50Ratio, row.rateRatio = float64(row.p50)/float64(rows[0].p50), row.rate/rows[0].rate
		} else {
			row.p50Ratio, row.rateRatio = 1, 1
		}
		rows = append(rows, row)
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%.0f\t%.2f×\t%.0f%%\t\n", t.name, ms(row.p50), ms(percentile(lat, 95)),
			ms(percentile(lat, 99)), row.rate, row.p50Ratio, 100*row.rateRatio)
	}
	tw.Flush()
	return rows
}

// reportSweep prints each target's throughput against the first target's
// at every concurrency measured.
func reportSweep(w io.Writer, levels []int, rows []sweepRow) {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprint(tw, "calls/s vs the first target\t")
	for _, c := range levels {
		fmt.Fprintf(tw, "c=%d\t", c)
	}
	fmt.Fprintln(tw)
	var names []string
	byName := map[string]map[int]sweepRow{}
	for _, r := range rows {
		if byName[r.name] == nil {
			byName[r.name] = map[int]sweepRow{}
			names = append(names, r.name)
		}
		byName[r.name][r.c] = r
	}
	for _, n := range names {
		fmt.Fprintf(tw, "%s\t", n)
		for _, c := range levels {
			fmt.Fprintf(tw, "%.0f%%\t", 100*byName[n][c].rateRatio)
		}
		fmt.Fprintln(tw)
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
