package journal

import (
	"fmt"
	"os"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
)

// events lists the records' events and calls, for comparing.
func events(recs []Record) []string {
	var out []string
	for _, r := range recs {
		out = append(out, string(r.Event)+" "+r.Call)
	}
	return out
}

// callRecords are the records of the journal's own calls, without its
// bookkeeping.
func callRecords(recs []Record) []Record {
	return slices.DeleteFunc(recs, func(r Record) bool { return r.Event.bookkeeping() })
}

func TestAppendAll_WritesTheRecordsInOneWrite(t *testing.T) {
	var disk *faultyFile
	j := openTest(t, Options{WrapFile: func(f File) File {
		disk = &faultyFile{File: f, budget: 1 << 30}
		return disk
	}})
	before, _ := disk.counts()
	life := lifeOfCall("c1")
	if err := j.AppendAll(life[:3]...); err != nil {
		t.Fatal(err)
	}
	if writes, _ := disk.counts(); writes != before+1 {
		t.Errorf("AppendAll of three records made %d writes, want 1", writes-before)
	}
	for i, r := range life[:3] {
		if r.Seq == 0 || r.Hash == "" || i > 0 && r.Prev != life[i-1].Hash {
			t.Errorf("record %d is not filled in as written: seq %d, hash %q, prev %q", i, r.Seq, r.Hash, r.Prev)
		}
	}
	mustAppend(t, j, life[3])
	path := j.Path()
	if err := j.Close(); err != nil {
		t.Fatal(err)
	}
	got := events(callRecords(mustRead(t, path)))
	if want := events(life); !slices.Equal(got, want) {
		t.Errorf("records read back %v, want %v", got, want)
	}
	mustVerify(t, j.Dir())
}

// A batch that fills a file rotates where Append would: the records before
// the rotation end the full file, sealed, and the rest begin the next.
func TestAppendAll_RotatesWithinABatch(t *testing.T) {
	j := openTest(t, Options{MaxSize: 4 << 10})
	var want []Record
	for i := 1; i <= 20; i++ {
		life := lifeOfCall(fmt.Sprintf("c%d", i))
		if err := j.AppendAll(life...); err != nil {
			t.Fatal(err)
		}
		want = append(want, life...)
	}
	dir := j.Dir()
	if err := j.Close(); err != nil {
		t.Fatal(err)
	}
	rep := mustVerify(t, dir)
	if files := len(rep.Segments[0].Files); files < 4 {
		t.Fatalf("20 calls filled %d files of 4 KiB, want at least 4", files)
	}
	if got := events(callRecords(mustRead(t, dir))); !slices.Equal(got, events(want)) {
		t.Errorf("records read back across the files:\n%v\nwant\n%v", got, events(want))
	}
}

// A seal falls due within a batch as it would between Appends: right after
// the record that completes its count.
func TestAppendAll_SealsWithinABatch(t *testing.T) {
	j := openTest(t, Options{SealEvery: 2})
	if err := j.AppendAll(lifeOfCall("c1")...); err != nil {
		t.Fatal(err)
	}
	path := j.Path()
	if err := j.Close(); err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, line := range readLines(t, path) {
		var r Record
		decodeRecord(line, &r)
		got = append(got, string(r.Event))
	}
	want := []string{"opened", "received", "decided", "sealed", "started", "finished", "sealed", "closed"}
	if !slices.Equal(got, want) {
		t.Errorf("events %v, want %v", got, want)
	}
	mustVerify(t, j.Dir())
}

// A record at fault stops the batch where Append would have stopped: the
// records before it are written, it and those after it are not.
func TestAppendAll_StopsAtARecordAtFault(t *testing.T) {
	for _, tc := range []struct {
		name  string
		fault Record
		says  string
	}{
		{"no event", Record{Call: "c1"}, "no event"},
		{"the journal's own event", Record{Call: "c1", Event: Sealed}, "journal's own"},
		{"a value JSON cannot encode", Record{Call: "c1", Event: Decided, Args: map[string]any{"x": func() {}}}, "cannot encode"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			j := openTest(t, Options{})
			life := lifeOfCall("c1")
			err := j.AppendAll(life[0], tc.fault, life[2])
			if err == nil || !strings.Contains(err.Error(), tc.says) {
				t.Fatalf("AppendAll = %v, want an error saying %q", err, tc.says)
			}
			if j.Err() != nil {
				t.Fatalf("a record at fault failed the journal: %v", j.Err())
			}
			mustAppend(t, j, Record{Call: "c2", Event: Received})
			path := j.Path()
			if err := j.Close(); err != nil {
				t.Fatal(err)
			}
			// Closing finds both calls open, as they are.
			want := []string{"received c1", "received c2", "interrupted c1", "interrupted c2"}
			if got := events(callRecords(mustRead(t, path))); !slices.Equal(got, want) {
				t.Errorf("records %v, want %v", got, want)
			}
			mustVerify(t, j.Dir())
		})
	}
}

// A failed write fails the batch and the journal, as a failed Append does.
func TestAppendAll_FailedWriteFailsTheJournal(t *testing.T) {
	j := openTest(t, Options{WrapFile: func(f File) File { return &faultyFile{File: f, budget: 600} }})
	err := j.AppendAll(lifeOfCall("c1")...)
	if err == nil || !strings.Contains(err.Error(), "journal failed") {
		t.Fatalf("AppendAll past the disk's room = %v, want the journal's failure", err)
	}
	if j.Err() == nil {
		t.Error("the journal goes on after a failed write")
	}
}

// A record at fault written alone, or first in a batch, is refused and
// leaves the journal working: nothing was held, and nothing failed.
func TestAppend_RecordAtFaultAloneLeavesTheJournalWorking(t *testing.T) {
	j := openTest(t, Options{})
	bad := Record{Call: "c1", Event: Received, Args: map[string]any{"x": func() {}}}
	if _, err := j.Append(bad); err == nil || !strings.Contains(err.Error(), "cannot encode") {
		t.Fatalf("Append of a record JSON cannot encode = %v, want an error saying so", err)
	}
	if err := j.AppendAll(bad, Record{Call: "c1", Event: Started}); err == nil || !strings.Contains(err.Error(), "cannot encode") {
		t.Fatalf("AppendAll led by that record = %v, want an error saying so", err)
	}
	if err := j.Err(); err != nil {
		t.Fatalf("a record at fault failed the journal: %v", err)
	}
	mustAppend(t, j, Record{Call: "c2", Event: Received})
}

// Closing writes an interrupted record for every call still open; when
// those fill the file, the segment rolls over as it would for any record,
// and Close succeeds.
func TestClose_RotatesWhileClosingOpenCalls(t *testing.T) {
	j := openTest(t, Options{MaxSize: 4 << 10})
	for i := 1; i <= 40; i++ {
		mustAppend(t, j, Record{Call: fmt.Sprintf("c%d", i), Event: Received, Tool: "grep_search"})
	}
	dir := j.Dir()
	if err := j.Close(); err != nil {
		t.Fatalf("Close: %v", err)
	}
	rep := mustVerify(t, dir)
	if files := len(rep.Segments[0].Files); files < 2 {
		t.Fatalf("40 open calls and their closing records filled %d file of 4 KiB, want at least 2", files)
	}
}

// A batch whose rotation cannot create the next file fails the journal
// with the reason: the create, and the file it could not make.
func TestAppendAll_FailedRotationSaysWhy(t *testing.T) {
	j := openTest(t, Options{MaxSize: 4 << 10})
	next := inDir(j.Dir(), partName(j.Segment(), 2))
	if err := os.WriteFile(next, nil, 0o600); err != nil { // O_EXCL refuses it
		t.Fatal(err)
	}
	var err error
	for i := 1; i <= 40 && err == nil; i++ {
		err = j.AppendAll(lifeOfCall(fmt.Sprintf("c%d", i))...)
	}
	if err == nil || !strings.Contains(err.Error(), "create") || !strings.Contains(err.Error(), next) {
		t.Fatalf("AppendAll past a file that cannot roll over = %v, want the failed create of %s", err, next)
	}
}

// gatedSync holds every Sync until the gate opens.
type gatedSync struct {
	File
	gate chan struct{}
}

func (g *gatedSync) Sync() error {
	<-g.gate
	return g.File.Sync()
}

// With SyncAlways, Append and AppendAll return only once an fsync covers
// what they wrote.
func TestAppendAll_SyncAlwaysWaitsForTheSync(t *testing.T) {
	for _, batch := range []bool{false, true} {
		t.Run(map[bool]string{false: "Append", true: "AppendAll"}[batch], func(t *testing.T) {
			gate := make(chan struct{})
			open := sync.OnceFunc(func() { close(gate) })
			j := openTest(t, Options{Sync: SyncAlways, WrapFile: func(f File) File { return &gatedSync{File: f, gate: gate} }})
			t.Cleanup(open) // before the journal's Close, which syncs
			done := make(chan error, 1)
			go func() {
				if batch {
					done <- j.AppendAll(lifeOfCall("c1")...)
					return
				}
				_, err := j.Append(lifeOfCall("c1")[0])
				done <- err
			}()
			select {
			case err := <-done:
				t.Fatalf("returned (%v) before any fsync", err)
			case <-time.After(100 * time.Millisecond):
			}
			open()
			if err := <-done; err != nil {
				t.Fatal(err)
			}
		})
	}
}
