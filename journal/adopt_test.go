package journal

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
)

// oldDefault puts an old single-file journal (with a key, an unfinished
// call and a torn tail) where the old default was: beside the directory.
func oldDefault(t *testing.T) (dir, key string) {
	t.Helper()
	old := oldJournal(t, 2)
	dir = filepath.Join(t.TempDir(), "journal")
	data, _ := os.ReadFile(old)
	data = append(data, []byte(`{"seq":9,"time":"2026-11-01T09:00:09Z","call":"old9","event":"received","prev":"`)...)
	lines := bytes.Split(data, []byte("\n"))
	// The second call had not ended: drop its finished record.
	data = bytes.Join(slices.Delete(lines, 7, 8), []byte("\n"))
	if err := os.WriteFile(legacyFile(dir), data, 0o600); err != nil {
		t.Fatal(err)
	}
	key = strings.Repeat("cd", 32) + "\n"
	if err := os.WriteFile(legacyFile(dir)+".key", []byte(key), 0o600); err != nil {
		t.Fatal(err)
	}
	return dir, key
}

func TestOpen_AdoptsTheOldDefaultJournal(t *testing.T) {
	dir, key := oldDefault(t)
	j, err := Open(dir, Options{})
	if err != nil {
		t.Fatal(err)
	}
	rec := j.Recovery()
	if err := j.Close(); err != nil {
		t.Fatal(err)
	}
	if !strings.HasSuffix(rec.Adopted, "-legacy") || !slices.Equal(rec.Segments, []string{rec.Adopted}) ||
		rec.TornBytes == 0 || !slices.Equal(rec.Interrupted, []string{"old2"}) {
		t.Fatalf("Recovery = %+v; want the old file adopted and recovered", rec)
	}
	if _, err := os.Stat(legacyFile(dir)); !os.IsNotExist(err) {
		t.Errorf("the old file is still beside the directory: %v", err)
	}
	if got, _ := os.ReadFile(filepath.Join(dir, keyName)); string(got) != key {
		t.Errorf("the journal's key is %q, want the old one", got)
	}
	calls := Calls(mustRead(t, dir))
	if len(calls) != 2 || calls[0].State != Finished || calls[1].State != Interrupted {
		t.Errorf("calls = %+v", calls)
	}
	rep := mustVerify(t, dir)
	if len(rep.Segments) != 2 || rep.Segments[0].Segment != rec.Adopted || rep.Segments[0].State != SegmentClosed {
		t.Errorf("Verify = %+v; want the adopted segment first, closed", rep)
	}
}

func TestOpen_LeavesAnOldJournalInUse(t *testing.T) {
	dir, _ := oldDefault(t)
	os.MkdirAll(dir, 0o700)
	f, err := os.Open(legacyFile(dir))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	// An older assent is still writing it.
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX); err != nil {
		t.Fatal(err)
	}
	j, err := Open(dir, Options{})
	if err != nil {
		t.Fatal(err)
	}
	mustAppend(t, j, Record{Call: "new", Event: Decided, Decision: Deny})
	j.Close()
	if j.Recovery().Adopted != "" {
		t.Errorf("adopted a journal in use: %+v", j.Recovery())
	}
	// Readers read both.
	var ids []string
	for _, c := range Calls(mustRead(t, dir)) {
		ids = append(ids, c.ID)
	}
	if want := []string{"old1", "old2", "new"}; !slices.Equal(ids, want) {
		t.Errorf("calls %v, want %v", ids, want)
	}
	rep := mustVerify(t, dir)
	if len(rep.Notes) != 1 || !strings.Contains(rep.Notes[0], "not yet moved into the directory") {
		t.Errorf("notes = %v", rep.Notes)
	}
}
