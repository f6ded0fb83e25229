package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"testing"
	"time"

	"github.com/assent-sh/assent/journal"
)

// bigLogJournal builds a journal of about size bytes for `assent log`: one
// segment of real calls is written, then copied as the segments of later
// days, one per day, as a machine running assent for months would have.
func bigLogJournal(b *testing.B, size int64) string {
	b.Helper()
	seedDir := filepath.Join(b.TempDir(), "seed")
	j, err := journal.Open(seedDir, journal.Options{})
	if err != nil {
		b.Fatal(err)
	}
	out := journal.NewBlob(bytes.Repeat([]byte("src/main.go:12: // TODO\n"), 30), 0)
	for n := range 2500 {
		for _, r := range logRecords()[:4] {
			r.Call = fmt.Sprintf("c%d", n)
			if r.Event == journal.Finished {
				r.Stdout = out
			}
			if _, err := j.Append(r); err != nil {
				b.Fatal(err)
			}
		}
	}
	seedFile := j.Path()
	j.Close()
	seed, err := os.ReadFile(seedFile)
	if err != nil {
		b.Fatal(err)
	}
	day := regexp.MustCompile(`"time":"(\d{4}-\d\d-\d\d)T`).FindSubmatch(seed)[1]
	first, _ := time.Parse(time.DateOnly, string(day))
	dir := filepath.Join(b.TempDir(), "journal")
	os.Mkdir(dir, 0o700)
	for k := 0; int64(k)*int64(len(seed)) < size; k++ {
		date := first.AddDate(0, 0, k+1)
		data := bytes.ReplaceAll(seed, append([]byte(`"time":"`), day...), []byte(`"time":"`+date.Format(time.DateOnly)))
		seg := fmt.Sprintf("%sT000000Z-%012x", date.Format("20060102"), k)
		if err := os.WriteFile(filepath.Join(dir, seg+".1.jsonl"), data, 0o600); err != nil {
			b.Fatal(err)
		}
	}
	return dir
}

// BenchmarkLog_1GB runs `assent log` over a 1 GB journal (400 segments) and
// reports the peak live heap (the goal: at most 50 MB) and the throughput,
// with a filter that matches nothing, the whole table, and JSON. The
// journal is built once per run; -short skips it.
//
//	go test -run '^$' -bench BenchmarkLog_1GB -benchtime 1x -count 3 ./cmd/assent/
func BenchmarkLog_1GB(b *testing.B) {
	if testing.Short() {
		b.Skip("builds a 1 GB journal")
	}
	dir := bigLogJournal(b, 1<<30)
	var size int64
	files, _ := filepath.Glob(filepath.Join(dir, "*.jsonl"))
	for _, f := range files {
		info, _ := os.Stat(f)
		size += info.Size()
	}
	for _, bb := range []struct {
		name string
		args []string
	}{
		{"no-match", []string{"--tool", "nothing_like_it"}},
		{"table", nil},
		{"json", []string{"--json"}},
	} {
		b.Run(bb.name, func(b *testing.B) {
			var peak uint64
			for range b.N {
				root := newRootCmd()
				root.SetOut(io.Discard)
				root.SetErr(io.Discard)
				root.SetArgs(append([]string{"log", "--journal", dir}, bb.args...))
				done := make(chan struct{})
				go func() {
					var m runtime.MemStats
					for {
						runtime.ReadMemStats(&m)
						peak = max(peak, m.HeapAlloc)
						select {
						case <-done:
							return
						case <-time.After(5 * time.Millisecond):
						}
					}
				}()
				err := root.ExecuteContext(context.Background())
				done <- struct{}{}
				if err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(peak)/(1<<20), "peak-heap-MB")
			b.ReportMetric(float64(size)/(1<<20)/(b.Elapsed().Seconds()/float64(b.N)), "MB/s")
		})
	}
}
