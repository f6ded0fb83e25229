package journal

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

func TestOpen_RepairsTornTail(t *testing.T) {
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
			path := journalOf(t, 2)
			f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND, 0)
			if err != nil {
				t.Fatal(err)
			}
			f.WriteString(tt.tail)
			f.Close()

			// Read-only readers skip the tail and say so.
			rep, err := Verify(path)
			if err != nil || rep.Fault != nil || rep.TornBytes != int64(len(tt.tail)) || rep.Records != 8 {
				t.Fatalf("Verify before repair = %+v, %v; want 8 records and a %d-byte tail", rep, err, len(tt.tail))
			}
			if recs, err := Read(path); err != nil || len(recs) != 8 {
				t.Fatalf("Read before repair: %d records, %v", len(recs), err)
			}

			again, err := Open(path, Options{})
			if err != nil {
				t.Fatal(err)
			}
			rec := again.Recovery()
			if rec.TornBytes != int64(len(tt.tail)) || rec.Fault != nil || rec.Records != 8 {
				t.Errorf("Recovery = %+v; want %d torn bytes of 8 records, no fault", rec, len(tt.tail))
			}
			next := mustAppend(t, again, Record{Call: "c3", Event: Received})
			if err := again.Close(); err != nil {
				t.Fatal(err)
			}
			if next.Seq != 10 {
				t.Errorf("first record after recovery has seq %d, want 10 (8 + recovered)", next.Seq)
			}

			recs, err := Read(path)
			if err != nil {
				t.Fatal(err)
			}
			got := recs[8]
			if got.Event != Recovered || got.TornBytes != int64(len(tt.tail)) || !strings.Contains(got.Reason, "torn") {
				t.Errorf("record 9 = %+v; want a recovered record noting the torn line", got)
			}
			if rep, err := Verify(path); err != nil || rep.Fault != nil || rep.TornBytes != 0 || rep.Records != 10 {
				t.Errorf("Verify after repair = %+v, %v", rep, err)
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
	if err := j.Close(); err != nil {
		t.Fatal(err)
	}

	again, err := Open(j.Path(), Options{})
	if err != nil {
		t.Fatal(err)
	}
	rec := again.Recovery()
	if want := []string{"running", "pending", "approved"}; !reflect.DeepEqual(rec.Interrupted, want) {
		t.Errorf("interrupted = %v, want %v", rec.Interrupted, want)
	}
	if rec.TornBytes != 0 || rec.Fault != nil || rec.Records != int64(len(steps)) {
		t.Errorf("Recovery = %+v", rec)
	}
	if err := again.Close(); err != nil {
		t.Fatal(err)
	}

	recs, err := Read(filepath.Clean(j.Path()))
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

	// A second open finds nothing left to do and writes nothing.
	third, err := Open(j.Path(), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if r := third.Recovery(); !r.Clean() {
		t.Errorf("second recovery = %+v, want clean", r)
	}
	third.Close()
	if after, _ := Read(j.Path()); len(after) != len(recs) {
		t.Errorf("a clean open appended %d records", len(after)-len(recs))
	}
}

func TestOpen_ReportsBrokenChain(t *testing.T) {
	path := journalOf(t, 2)
	lines := readLines(t, path)
	lines[2] = []byte(strings.Replace(string(lines[2]), `"started"`, `"finished"`, 1))
	writeLines(t, path, lines)

	again, err := Open(path, Options{})
	if err != nil {
		t.Fatalf("a broken chain must not stop the journal opening: %v", err)
	}
	f := again.Recovery().Fault
	if f == nil || f.Seq != 3 || f.Line != 3 {
		t.Errorf("Recovery().Fault = %v, want record 3 (line 3)", f)
	}
	mustAppend(t, again, Record{Call: "c3", Event: Received})
	again.Close()

	rep, err := Verify(path)
	if err != nil || rep.Fault == nil || rep.Fault.Seq != 3 {
		t.Errorf("Verify = %+v, %v; the original break must stay evident", rep, err)
	}
	recs, _ := Read(path)
	if last := recs[len(recs)-2]; last.Event != Recovered || !strings.Contains(last.Reason, "record 3 (line 3)") {
		t.Errorf("recovered record = %+v; want it to name the break", last)
	}
}

func TestOpen_RefusesWhatIsNotAJournal(t *testing.T) {
	path := filepath.Join(t.TempDir(), "notes.txt")
	content := "export TOKEN=abc\n"
	os.WriteFile(path, []byte(content), 0o600)
	_, err := Open(path, Options{})
	if err == nil || !strings.Contains(err.Error(), "does not look like an assent journal") {
		t.Errorf("Open = %v, want a refusal", err)
	}
	if got, _ := os.ReadFile(path); string(got) != content {
		t.Errorf("the file was changed to %q", got)
	}
}

func TestOpen_OneWriterAtATime(t *testing.T) {
	j := openTest(t, Options{})
	_, err := Open(j.Path(), Options{})
	if err == nil || !strings.Contains(err.Error(), "in use by another process") {
		t.Errorf("second Open = %v, want it refused", err)
	}
	j.Close()
	again, err := Open(j.Path(), Options{})
	if err != nil {
		t.Fatalf("Open after Close: %v", err)
	}
	again.Close()
}

func TestOpen_CreatesPrivateFiles(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "state", "assent")
	j, err := Open(filepath.Join(dir, "journal.jsonl"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer j.Close()
	for path, want := range map[string]os.FileMode{dir: 0o700 | os.ModeDir, j.Path(): 0o600} {
		info, err := os.Stat(path)
		if err != nil {
			t.Fatal(err)
		}
		if info.Mode() != want {
			t.Errorf("%s has mode %v, want %v", path, info.Mode(), want)
		}
	}
}
