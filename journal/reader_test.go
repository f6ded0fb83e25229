package journal

import (
	"context"
	"errors"
	"io"
	"io/fs"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
)

func TestReader_MergesSegmentsInTimeOrder(t *testing.T) {
	a := openTest(t, Options{})
	b, err := Open(a.Dir(), Options{})
	if err != nil {
		t.Fatal(err)
	}
	var want []string
	for i := range 10 {
		j, name := a, "a"
		if i%2 == 1 {
			j, name = b, "b"
		}
		id := name + strconv.Itoa(i)
		mustAppend(t, j, Record{Call: id, Event: Decided, Decision: Deny})
		want = append(want, id)
	}
	b.Close()
	a.Close()
	var got []string
	for _, r := range mustRead(t, a.Dir()) {
		got = append(got, r.Call)
	}
	if !slices.Equal(got, want) {
		t.Errorf("records read as %v, want %v", got, want)
	}
}

func TestReader_StopsAtABadLine(t *testing.T) {
	dir, file := journalOf(t, 1, Options{})
	lines := readLines(t, file)
	lines = slices.Insert(lines, 2, []byte("{oops"))
	writeLines(t, file, lines)

	recs, err := Read(dir)
	if err == nil || !strings.Contains(err.Error(), "line 3 is not a record") || !strings.Contains(err.Error(), file) {
		t.Errorf("Read = %v, want an error naming line 3 of %s", err, file)
	}
	if len(recs) != 1 {
		t.Errorf("Read returned %d records before the bad line, want 1", len(recs))
	}
}

func TestReader_MissingJournal(t *testing.T) {
	for _, path := range []string{t.TempDir() + "/none", t.TempDir() + "/none.jsonl"} {
		if _, err := Read(path); !errors.Is(err, fs.ErrNotExist) || !strings.Contains(err.Error(), path) {
			t.Errorf("Read(%s) = %v, want not-exist naming it", path, err)
		}
	}
}

// next reads one record from a following reader, failing after a while.
func next(t *testing.T, r *Reader) Record {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	rec, err := r.Next(ctx)
	if err != nil {
		t.Fatalf("Next: %v", err)
	}
	return rec
}

func TestReader_Follows(t *testing.T) {
	j := openTest(t, Options{MaxSize: 4 << 10})
	mustAppend(t, j, Record{Call: "before", Event: Received})
	r, err := NewReader(j.Dir(), ReadOptions{Follow: true, Poll: 5 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	if got := next(t, r); got.Call != "before" {
		t.Fatalf("first record %+v", got)
	}
	// Records appended later, across a rotation and from a new segment.
	mustAppend(t, j, Record{Call: "after", Event: Received, Reason: strings.Repeat("x", 5000)})
	if got := next(t, r); got.Call != "after" {
		t.Fatalf("appended record %+v", got)
	}
	other, err := Open(j.Dir(), Options{})
	if err != nil {
		t.Fatal(err)
	}
	mustAppend(t, other, Record{Call: "elsewhere", Event: Decided, Decision: Deny})
	if got := next(t, r); got.Call != "elsewhere" || got.Segment != other.Segment() {
		t.Fatalf("record of the new segment %+v", got)
	}
	other.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Millisecond)
	defer cancel()
	if rec, err := r.Next(ctx); err != context.DeadlineExceeded {
		t.Errorf("Next with nothing new = %+v, %v; want the context's end", rec, err)
	}
}

// A Reader reads every file of a segment to its closing seal, and returns
// the call records only: the journal's own records are verification's.
func TestReader_ReadsCallRecordsToTheEnd(t *testing.T) {
	dir, _ := journalOf(t, 2, Options{MaxSize: 1 << 10})
	r, err := NewReader(dir, ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	var events []Event
	for {
		rec, err := r.Next(context.Background())
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		events = append(events, rec.Event)
	}
	want := []Event{Received, Decided, Started, Finished, Received, Decided, Started, Finished}
	if !slices.Equal(events, want) {
		t.Errorf("events = %v; want %v", events, want)
	}
}
