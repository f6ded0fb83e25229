package journal

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestOpen_RefusesASingleFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "notes.txt")
	content := "export TOKEN=abc\n"
	os.WriteFile(path, []byte(content), 0o600)
	_, err := Open(path, Options{})
	if err == nil || !strings.Contains(err.Error(), "is a single file") {
		t.Errorf("Open = %v, want a refusal", err)
	}
	if got, _ := os.ReadFile(path); string(got) != content {
		t.Errorf("the file was changed to %q", got)
	}
}

func TestOpen_LeavesADeadSegmentThatIsNotAJournal(t *testing.T) {
	dir := t.TempDir()
	const seg = "20260101T000000Z-000000000000"
	junk := []byte("export TOKEN=abc\n")
	os.WriteFile(filepath.Join(dir, partName(seg, 1)), junk, 0o600)
	os.WriteFile(filepath.Join(dir, lockName(seg)), nil, 0o600)
	rec := reopen(t, dir)
	if len(rec.Problems) != 1 || !strings.Contains(rec.Problems[0], "does not look like an assent journal") {
		t.Errorf("Recovery = %+v; want the junk named as a problem", rec)
	}
	if got, _ := os.ReadFile(filepath.Join(dir, partName(seg, 1))); !bytes.Equal(got, junk) {
		t.Errorf("the file was changed to %q", got)
	}
}

func TestOpen_ManyWritersAtOnce(t *testing.T) {
	a := openTest(t, Options{})
	b, err := Open(a.Dir(), Options{})
	if err != nil {
		t.Fatalf("a second writer: %v", err)
	}
	if !b.Recovery().Clean() || a.Segment() == b.Segment() {
		t.Errorf("the second writer recovered %+v, segments %s and %s", b.Recovery(), a.Segment(), b.Segment())
	}
	mustAppend(t, a, Record{Call: "from-a", Event: Decided, Decision: Deny})
	mustAppend(t, b, Record{Call: "from-b", Event: Decided, Decision: Deny})
	if err := b.Close(); err != nil {
		t.Fatal(err)
	}
	if err := a.Close(); err != nil {
		t.Fatal(err)
	}
	recs, err := Read(a.Dir())
	if err != nil || len(recs) != 2 || recs[0].Call != "from-a" || recs[1].Call != "from-b" {
		t.Errorf("Read = %+v, %v", recs, err)
	}
	if rep := mustVerify(t, a.Dir()); len(rep.Segments) != 2 {
		t.Errorf("%d segments, want 2", len(rep.Segments))
	}
}

func TestOpen_CreatesPrivateFiles(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "state", "assent", "journal")
	j, err := Open(dir, Options{})
	if err != nil {
		t.Fatal(err)
	}
	seg := j.Segment()
	want := map[string]os.FileMode{dir: 0o700 | os.ModeDir, j.Path(): 0o600,
		filepath.Join(dir, keyName): 0o600, filepath.Join(dir, lockName(seg)): 0o600}
	for path, mode := range want {
		if info, err := os.Stat(path); err != nil || info.Mode() != mode {
			t.Errorf("%s: %v, %v; want mode %v", path, info.Mode(), err, mode)
		}
	}
	if err := j.Close(); err != nil {
		t.Fatal(err)
	}
	if info, err := os.Stat(filepath.Join(dir, headName(seg))); err != nil || info.Mode() != 0o600 {
		t.Errorf("head file: %v, %v; want mode 0600", info, err)
	}
	if _, err := os.Stat(filepath.Join(dir, lockName(seg))); !os.IsNotExist(err) {
		t.Errorf("the lock file is still there after Close: %v", err)
	}
}
