//go:build unix

package exec

import (
	"context"
	osexec "os/exec"
	"testing"
	"time"
)

// BenchmarkRun compares the runner with a bare os/exec run of the same
// program, side by side: every iteration runs /bin/true once each way,
// alternating which goes first, so load from elsewhere on the machine falls
// on both alike. ns/op is the pair; runner-ns/op and bare-ns/op split it,
// and ratio (runner over bare) is the runner's overhead, the number to
// watch.
func BenchmarkRun(b *testing.B) {
	l := NewLocal(Options{})
	cmd := Command{Path: "/bin/true", Argv: []string{"true"}}
	ctx := context.Background()
	runner := func() {
		if res := l.Run(ctx, cmd, nil); res.ExitCode != 0 {
			b.Fatalf("runner: exit %d: %s", res.ExitCode, res.StartError)
		}
	}
	bare := func() {
		if err := osexec.Command("/bin/true").Run(); err != nil {
			b.Fatalf("bare: %v", err)
		}
	}
	var inRunner, inBare time.Duration
	timed := func(f func(), total *time.Duration) {
		start := time.Now()
		f()
		*total += time.Since(start)
	}
	n := 0
	for b.Loop() {
		if n%2 == 0 {
			timed(runner, &inRunner)
			timed(bare, &inBare)
		} else {
			timed(bare, &inBare)
			timed(runner, &inRunner)
		}
		n++
	}
	b.ReportMetric(float64(inRunner.Nanoseconds())/float64(n), "runner-ns/op")
	b.ReportMetric(float64(inBare.Nanoseconds())/float64(n), "bare-ns/op")
	b.ReportMetric(float64(inRunner)/float64(inBare), "ratio")
}
