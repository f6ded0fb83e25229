package journal

import (
	"context"
	"path/filepath"
	"testing"
)

// BenchmarkAppend measures records per second on the real disk under
// t.TempDir, in both sync modes, from one goroutine and from many. The
// "wait" case makes each record durable before its writer goes on, the
// way the queue does before starting a process, and shows what sharing
// fsyncs buys against "always".
//
//	go test -run '^$' -bench BenchmarkAppend -benchmem ./journal/
func BenchmarkAppend(b *testing.B) {
	rec := Record{Call: "c-000123", Event: Started, Tool: "grep_search", Client: "claude-code",
		Path: "/usr/bin/grep", Argv: []string{"grep", "-rn", "--", "TODO", "./src"}, Cwd: "/srv/app",
		CommandHash: "9f2c4b7a1e0d3c5b8a6f4e2d1c0b9a8f7e6d5c4b3a2f1e0d9c8b7a6f5e4d3c2b"}
	tests := []struct {
		name     string
		sync     SyncMode
		parallel bool
		wait     bool
	}{
		{name: "group", sync: SyncGroup},
		{name: "always", sync: SyncAlways},
		{name: "group-parallel", sync: SyncGroup, parallel: true},
		{name: "group-parallel-wait", sync: SyncGroup, parallel: true, wait: true},
		{name: "always-parallel", sync: SyncAlways, parallel: true},
	}
	for _, tt := range tests {
		b.Run(tt.name, func(b *testing.B) {
			j, err := Open(filepath.Join(b.TempDir(), "journal.jsonl"), Options{Sync: tt.sync})
			if err != nil {
				b.Fatal(err)
			}
			ctx := context.Background()
			b.ResetTimer()
			if tt.parallel {
				b.SetParallelism(8)
				b.RunParallel(func(pb *testing.PB) {
					for pb.Next() {
						r, err := j.Append(rec)
						if err == nil && tt.wait {
							err = j.Wait(ctx, r.Seq)
						}
						if err != nil {
							b.Error(err)
							return
						}
					}
				})
			} else {
				for range b.N {
					if _, err := j.Append(rec); err != nil {
						b.Fatal(err)
					}
				}
			}
			b.StopTimer()
			b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "records/s")
			if err := j.Close(); err != nil {
				b.Fatal(err)
			}
		})
	}
}

// BenchmarkAppendAll writes a call's three records up to its start, one
// Append each or in one AppendAll, as the queue writes them for a call a
// rule allows.
//
//	go test -run '^$' -bench BenchmarkAppendAll -benchmem ./journal/
func BenchmarkAppendAll(b *testing.B) {
	life := lifeOfCall("c-000123")[:3]
	for _, batch := range []bool{false, true} {
		b.Run(map[bool]string{false: "append-each", true: "append-all"}[batch], func(b *testing.B) {
			j, err := Open(filepath.Join(b.TempDir(), "journal.jsonl"), Options{})
			if err != nil {
				b.Fatal(err)
			}
			b.ReportAllocs()
			var recs [3]Record
			for b.Loop() {
				copy(recs[:], life)
				if batch {
					err = j.AppendAll(recs[:]...)
				} else {
					for _, r := range recs {
						if _, err = j.Append(r); err != nil {
							break
						}
					}
				}
				if err != nil {
					b.Fatal(err)
				}
			}
			b.StopTimer()
			if err := j.Close(); err != nil {
				b.Fatal(err)
			}
		})
	}
}
