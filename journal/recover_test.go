package journal

import (
	"bytes"
	"os"
	"reflect"
	"slices"
	"strings"
	"testing"
)

// reopen opens dir again, closes it, and returns what its Open recovered.
func reopen(t *testing.T, dir string) Recovery {
	t.Helper()
	j, err := Open(dir, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if err := j.Close(); err != nil {
		t.Fatal(err)
	}
	return j.Recovery()
}

func TestOpen_RecoversATornTail(t *testing.T) {
	tests := []struct {
		name string
		tail string // bytes a dying writer left after the last newline
	}{
		{name: "half a record", tail: `{"seq":9,"time":"2026-12-01T00:00:00Z","call":"c3","event":"rece`},
		{name: "one byte", tail: `{`},
		{name: "zeros from a lost page", tail: "\x00\x00\x00\x00\x00\x00\x00\x00"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			j := openTest(t, Options{})
			writeCalls(t, j, 2)
			dir, file, seg := j.Dir(), j.Path(), j.Segment()
			crash(j)
			f, err := os.OpenFile(file, os.O_WRONLY|os.O_APPEND, 0)
			if err != nil {
				t.Fatal(err)
			}
			f.WriteString(tt.tail)
			f.Close()

			// Readers skip the tail and say so; the segment is unclosed,
			// not cut, while its lock file says a process was writing it.
			rep := mustVerify(t, dir)
			if rep.TornBytes != int64(len(tt.tail)) || rep.Segments[0].State != SegmentUnclosed {
				t.Fatalf("Verify before repair = %+v; want a %d-byte tail on an unclosed segment", rep, len(tt.tail))
			}
			if recs, err := Read(dir); err != nil || len(recs) != 8 {
				t.Fatalf("Read before repair: %d records, %v", len(recs), err)
			}

			rec := reopen(t, dir)
			if !slices.Equal(rec.Segments, []string{seg}) || rec.TornBytes != int64(len(tt.tail)) || rec.Fault != nil {
				t.Errorf("Recovery = %+v; want segment %s with %d torn bytes, no fault", rec, seg, len(tt.tail))
			}
			recs, err := Read(dir)
			if err != nil {
				t.Fatal(err)
			}
			if len(recs) != 9 {
				t.Fatalf("%d records after recovery, want the 8 and a recovered one", len(recs))
			}
			if got := recs[8]; got.Event != Recovered || got.TornBytes != int64(len(tt.tail)) ||
				!strings.Contains(got.Reason, "torn") || got.Segment != seg {
				t.Errorf("last record = %+v; want a recovered record in %s noting the torn line", got, seg)
			}
			rep = mustVerify(t, dir)
			if rep.TornBytes != 0 || len(rep.Segments) != 2 || rep.Segments[0].State != SegmentClosed {
				t.Errorf("Verify after repair = %+v", rep)
			}
		})
	}
}

func TestOpen_MarksInterruptedCalls(t *testing.T) {
	j := openTest(t, Options{})
	life := lifeOfCall("done")
	steps := []Record{
		life[0], life[1], life[2], life[3],
		{Call: "running", Event: Received, Tool: "sleep"},
		{Call: "running", Event: Decided, Decision: Allow, Decider: ByOperator},
		{Call: "running", Event: Started},
		{Call: "running", Event: Output, Stdout: NewBlob([]byte("tick\n"), 0)},
		{Call: "pending", Event: Received},
		{Call: "pending", Event: Decided, Decision: Ask, Decider: ByRule, Rule: "default"},
		{Call: "denied", Event: Received},
		{Call: "denied", Event: Decided, Decision: Deny, Decider: ByTimeout},
		{Call: "approved", Event: Received},
		{Call: "approved", Event: Edited, Edit: &Edit{Before: []string{"rm", "-rf", "/"}, After: []string{"ls"}}},
		{Call: "approved", Event: Decided, Decision: Allow, Decider: ByOperator},
	}
	for _, r := range steps {
		mustAppend(t, j, r)
	}
	dir := j.Dir()
	crash(j)

	rec := reopen(t, dir)
	if want := []string{"running", "pending", "approved"}; !reflect.DeepEqual(rec.Interrupted, want) {
		t.Errorf("interrupted = %v, want %v", rec.Interrupted, want)
	}
	if rec.TornBytes != 0 || rec.Fault != nil || rec.Records != int64(len(steps))+1 {
		t.Errorf("Recovery = %+v; want %d records read (the opened one too)", rec, len(steps)+1)
	}

	recs, err := Read(dir)
	if err != nil {
		t.Fatal(err)
	}
	states := map[string]Event{}
	reasons := map[string]string{}
	for _, c := range Calls(recs) {
		states[c.ID] = c.State
		reasons[c.ID] = c.Events[len(c.Events)-1].Reason
	}
	wantStates := map[string]Event{"done": Finished, "running": Interrupted, "pending": Interrupted,
		"denied": Decided, "approved": Interrupted}
	if !reflect.DeepEqual(states, wantStates) {
		t.Errorf("states after recovery = %v, want %v", states, wantStates)
	}
	if !strings.Contains(reasons["running"], "was running") || !strings.Contains(reasons["pending"], "never ran") {
		t.Errorf("interrupted reasons do not say whether the call ran: %q", reasons)
	}

	// The next open finds nothing left to do and writes nothing.
	if r := reopen(t, dir); !r.Clean() {
		t.Errorf("second recovery = %+v, want clean", r)
	}
	if after, _ := Read(dir); len(after) != len(recs) {
		t.Errorf("a clean open appended %d records", len(after)-len(recs))
	}
	mustVerify(t, dir)
}

func TestClose_MarksCallsLeftOpenInterrupted(t *testing.T) {
	j := openTest(t, Options{})
	mustAppend(t, j, Record{Call: "left", Event: Received})
	mustAppend(t, j, Record{Call: "left", Event: Decided, Decision: Allow, Decider: ByRule})
	mustAppend(t, j, Record{Call: "left", Event: Started})
	if err := j.Close(); err != nil {
		t.Fatal(err)
	}
	recs, err := Read(j.Dir())
	if err != nil {
		t.Fatal(err)
	}
	last := recs[len(recs)-1]
	if last.Call != "left" || last.Event != Interrupted || !strings.Contains(last.Reason, "closed the journal") {
		t.Errorf("last record = %+v; want the running call marked interrupted at close", last)
	}
}

// TestOpen_RecoversFromTheLastSeal shows that recovery reads a dead
// segment from its last seal on: a record changed before it goes unseen
// by Open (and is found by Verify, which reads everything).
func TestOpen_RecoversFromTheLastSeal(t *testing.T) {
	j := openTest(t, Options{SealEvery: 10})
	writeCalls(t, j, 30)
	mustAppend(t, j, Record{Call: "late", Event: Received})
	dir, file := j.Dir(), j.Path()
	crash(j)
	lines := readLines(t, file)
	lines[5] = bytes.Replace(lines[5], []byte("TODO"), []byte("tada"), 1)
	writeLines(t, file, lines)

	rec := reopen(t, dir)
	if rec.Fault != nil || rec.Records > 11 || !slices.Equal(rec.Interrupted, []string{"late"}) {
		t.Errorf("Recovery = %+v; want a few records read from the last seal, no fault, late interrupted", rec)
	}
	rep, err := Verify(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Faults) == 0 || rep.Faults[0].Seq != 6 {
		t.Errorf("Verify faults = %+v; want the change at record 6", rep.Faults)
	}
}

func TestOpen_ReportsABreakAfterTheLastSeal(t *testing.T) {
	j := openTest(t, Options{})
	writeCalls(t, j, 2)
	dir, file := j.Dir(), j.Path()
	crash(j)
	lines := readLines(t, file)
	lines[3] = bytes.Replace(lines[3], []byte(`"started"`), []byte(`"finished"`), 1)
	writeLines(t, file, lines)

	rec := reopen(t, dir)
	if rec.Fault == nil || rec.Fault.Seq != 4 || rec.Fault.Line != 4 {
		t.Fatalf("Recovery().Fault = %v, want record 4 (line 4)", rec.Fault)
	}
	rep, err := Verify(dir)
	if err != nil || len(rep.Faults) == 0 || rep.Faults[0].Seq != 4 {
		t.Errorf("Verify = %+v, %v; the original break must stay evident", rep, err)
	}
	recs, _ := Read(dir)
	if last := recs[len(recs)-1]; last.Event != Recovered || !strings.Contains(last.Reason, "record 4") {
		t.Errorf("recovered record = %+v; want it to name the break", last)
	}
}

// What Open found goes to assent's log as one line, the adoption of an old
// single-file journal included.
func TestRecovery_String(t *testing.T) {
	tests := []struct {
		name string
		rec  Recovery
		want string
	}{
		{"clean", Recovery{}, "nothing to recover"},
		{"adopted and closed", Recovery{Adopted: "L", Segments: []string{"L"}, Interrupted: []string{"c1"}},
			"moved the single-file journal beside the directory into it as segment L; " +
				"closed segment L, whose process had ended without closing it; marked 1 unfinished calls interrupted"},
		{"adopted, closed by another process", Recovery{Adopted: "L"},
			"moved the single-file journal beside the directory into it as segment L"},
		{"two dead, a torn line, a problem", Recovery{Segments: []string{"a", "b"}, TornBytes: 5, Problems: []string{"segment c: denied"}},
			"closed 2 segments whose process had ended without closing them; cut 5 bytes of a torn last line; " +
				"could not recover segment c: denied"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := tt.rec.String(); got != tt.want {
				t.Errorf("String() = %q\nwant       %q", got, tt.want)
			}
			if tt.rec.Clean() != (tt.want == "nothing to recover") {
				t.Errorf("Clean() = %v", tt.rec.Clean())
			}
		})
	}
}
