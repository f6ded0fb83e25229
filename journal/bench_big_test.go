package journal

import (
	"bufio"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// bigJournal is the size the 1 GB benchmarks generate.
const bigJournal = 1 << 30

// bufferedFile buffers a generated journal's writes: generating 1 GB one
// write(2) per record would take most of a minute. The journal may Sync
// while it Writes, so both take the lock.
type bufferedFile struct {
	mu sync.Mutex
	w  *bufio.Writer
	f  File
}

func buffered(f File) File { return &bufferedFile{w: bufio.NewWriterSize(f, 1<<20), f: f} }

func (b *bufferedFile) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.w.Write(p)
}

func (b *bufferedFile) Sync() error {
	b.mu.Lock()
	defer b.mu.Unlock()
	if err := b.w.Flush(); err != nil {
		return err
	}
	return b.f.Sync()
}

func (b *bufferedFile) Close() error {
	b.mu.Lock()
	defer b.mu.Unlock()
	return errors.Join(b.w.Flush(), b.f.Close())
}

// generate writes a journal of about size bytes into dir, in one segment
// (calls shaped as the issue measured: about 1.9 KB each), leaves one call
// running and the segment unclosed, as a process killed while running it
// leaves it, and returns the segment's file.
func generate(b *testing.B, dir string, size int64) string {
	b.Helper()
	start := time.Now()
	j, err := Open(dir, Options{MaxSize: 2 * size, SealInterval: time.Hour, WrapFile: buffered})
	if err != nil {
		b.Fatal(err)
	}
	out := []byte(strings.Repeat("src/journal/journal.go:42: // TODO seal the head\n", 14))
	for n := 0; ; n++ {
		life := lifeOfCall(fmt.Sprintf("20261201T120000-%d", n))
		life[3].Stdout = NewBlob(out, 0)
		for _, r := range life {
			if _, err := j.Append(r); err != nil {
				b.Fatal(err)
			}
		}
		if n%1000 == 0 {
			if info, err := os.Stat(j.Path()); err != nil || info.Size() >= size {
				break
			}
		}
	}
	// The worst case for recovery: the kill comes just before a seal.
	for i := 0; j.w.unsealed < DefaultSealEvery-3; i++ {
		j.Append(Record{Call: fmt.Sprintf("late-%d", i), Event: Decided, Decision: Deny, Decider: ByRule})
	}
	for _, r := range lifeOfCall("running")[:2] {
		j.Append(r)
	}
	file := j.Path()
	crash(j)
	info, _ := os.Stat(file)
	b.Logf("generated %d MB in %v", info.Size()>>20, time.Since(start).Round(time.Millisecond))
	return file
}

// snapshot keeps what Open changes in a generated journal, to put it back.
type snapshot struct {
	dir, file string
	size      int64
	files     map[string]bool
}

func takeSnapshot(b *testing.B, dir, file string) snapshot {
	s := snapshot{dir: dir, file: file, files: map[string]bool{}}
	if file != "" {
		info, err := os.Stat(file)
		if err != nil {
			b.Fatal(err)
		}
		s.size = info.Size()
	}
	names, _ := filepath.Glob(filepath.Join(dir, "*"))
	for _, n := range names {
		s.files[n] = true
	}
	return s
}

// restore undoes an Open: the dead segment as the kill left it, and no
// segment of the benchmark's own.
func (s snapshot) restore(b *testing.B) {
	names, _ := filepath.Glob(filepath.Join(s.dir, "*"))
	for _, n := range names {
		if !s.files[n] {
			os.Remove(n)
		}
	}
	if s.file == "" {
		return
	}
	if err := os.Truncate(s.file, s.size); err != nil {
		b.Fatal(err)
	}
	seg, _, _ := parsePart(filepath.Base(s.file))
	os.WriteFile(filepath.Join(s.dir, lockName(seg)), nil, 0o600)
}

// BenchmarkOpen_1GB opens a journal holding a 1 GB segment whose process
// was killed, so Open must recover it, against opening an empty journal in
// the same run. Opening reads the dead segment back to its last seal, not
// from its start. The journal is generated once per run (tens of seconds);
// -short skips it.
//
//	go test -run '^$' -bench 'BenchmarkOpen_1GB' -count 5 ./journal/
func BenchmarkOpen_1GB(b *testing.B) {
	if testing.Short() {
		b.Skip("generates a 1 GB journal")
	}
	big := filepath.Join(b.TempDir(), "journal")
	killed := takeSnapshot(b, big, generate(b, big, bigJournal))
	// The baseline: a journal holding only its key, as after the first run.
	empty := filepath.Join(b.TempDir(), "journal")
	if j, err := Open(empty, Options{}); err != nil {
		b.Fatal(err)
	} else {
		os.Remove(j.Path())
		j.Close()
		os.Remove(filepath.Join(empty, headName(j.Segment())))
	}
	fresh := takeSnapshot(b, empty, "")
	for _, bb := range []struct {
		name string
		snap snapshot
	}{{"empty", fresh}, {"1GB-killed", killed}, {"empty-again", fresh}, {"1GB-killed-again", killed}} {
		b.Run(bb.name, func(b *testing.B) {
			var read int64
			for range b.N {
				j, err := Open(bb.snap.dir, Options{})
				if err != nil {
					b.Fatal(err)
				}
				b.StopTimer()
				rec := j.Recovery()
				if bb.snap.file != "" && len(rec.Segments) != 1 {
					b.Fatalf("Open recovered %+v", rec)
				}
				read = max(read, rec.Records)
				j.Close()
				bb.snap.restore(b)
				b.StartTimer()
			}
			b.ReportMetric(float64(b.Elapsed().Microseconds())/float64(b.N)/1000, "ms/open")
			b.ReportMetric(float64(read), "records-read")
		})
	}
}
