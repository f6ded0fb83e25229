// Package pair times two ways of doing one thing against each other in a
// benchmark, in the same run and interleaved, so that load from elsewhere
// on a shared machine falls on both alike.
package pair

import (
	"slices"
	"testing"
	"time"
)

// Compare runs a and b once each per iteration, alternating which goes
// first; ns/op is the pair. It reports each side's mean and median per run,
// and two ratios of a over b: of the totals ("ratio") and of the medians
// ("p50-ratio"), which a burst of load on a shared machine moves less.
func Compare(b *testing.B, nameA string, a func(), nameB string, fb func()) {
	var ta, tb []time.Duration
	timed := func(f func(), into *[]time.Duration) {
		start := time.Now()
		f()
		*into = append(*into, time.Since(start))
	}
	n := 0
	for b.Loop() {
		if n%2 == 0 {
			timed(a, &ta)
			timed(fb, &tb)
		} else {
			timed(fb, &tb)
			timed(a, &ta)
		}
		n++
	}
	sa, sb := sum(ta), sum(tb)
	b.ReportMetric(float64(sa.Nanoseconds())/float64(n), nameA+"-ns/op")
	b.ReportMetric(float64(sb.Nanoseconds())/float64(n), nameB+"-ns/op")
	b.ReportMetric(float64(sa)/float64(sb), "ratio")
	pa, pb := median(ta), median(tb)
	b.ReportMetric(float64(pa.Nanoseconds()), nameA+"-p50-ns")
	b.ReportMetric(float64(pb.Nanoseconds()), nameB+"-p50-ns")
	b.ReportMetric(float64(pa)/float64(pb), "p50-ratio")
}

func sum(ds []time.Duration) (t time.Duration) {
	for _, d := range ds {
		t += d
	}
	return t
}

func median(ds []time.Duration) time.Duration {
	slices.Sort(ds)
	return ds[len(ds)/2]
}
