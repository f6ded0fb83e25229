package journal

import (
	"fmt"
	"slices"
	"strings"
	"testing"
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
