package journal

import (
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// rotated returns a closed journal whose one segment rolled over several
// files of at most 4 KiB, and the segment's files in order.
func rotated(t *testing.T) (dir string, files []string) {
	t.Helper()
	dir, file := journalOf(t, 20, Options{MaxSize: 4 << 10})
	seg, _, _ := parsePart(filepath.Base(file))
	l, err := listDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range l.segments[0].parts {
		files = append(files, filepath.Join(dir, partName(seg, p)))
	}
	if len(files) < 4 {
		t.Fatalf("20 calls filled %d files of 4 KiB, want at least 4", len(files))
	}
	return dir, files
}

func TestRotate_RollsToLinkedFiles(t *testing.T) {
	dir, files := rotated(t)
	var prevLast Record
	for i, f := range files {
		info, err := os.Stat(f)
		// The seal that ends a full file may take it a little past the size.
		if err != nil || info.Size() > 4<<10+512 || info.Mode() != 0o600 {
			t.Errorf("%s: %v, %v; want about 4 KiB at most, mode 0600", f, info, err)
		}
		lines := readLines(t, f)
		var first, last Record
		decodeRecord(lines[0], &first)
		decodeRecord(lines[len(lines)-1], &last)
		if first.Event != Opened || first.Part != i+1 {
			t.Errorf("%s begins with %s part %d", f, first.Event, first.Part)
		}
		if i > 0 && (first.Prev != prevLast.Hash || first.Seq != prevLast.Seq+1) {
			t.Errorf("%s does not continue the chain of the file before it", f)
		}
		if want := map[bool]Event{true: Closed, false: Sealed}[i == len(files)-1]; last.Event != want {
			t.Errorf("%s ends with %s, want %s", f, last.Event, want)
		}
		prevLast = last
	}
	calls := Calls(mustRead(t, dir))
	if len(calls) != 20 || calls[0].ID != "c1" || calls[19].ID != "c20" {
		t.Errorf("%d calls read across the files", len(calls))
	}
	rep := mustVerify(t, dir)
	if len(rep.Segments) != 1 || len(rep.Segments[0].Files) != len(files) {
		t.Errorf("Verify = %+v", rep)
	}
}

func TestVerify_DetectsMissingFiles(t *testing.T) {
	tests := []struct {
		name    string
		remove  func(files []string) []string
		kinds   []FaultKind
		problem string
	}{
		{"a middle file", func(f []string) []string { return f[1:2] },
			[]FaultKind{MissingFile}, "file part 2 is missing"},
		{"two middle files", func(f []string) []string { return f[1:3] },
			[]FaultKind{MissingFile}, "file parts 2 to 3 are missing"},
		{"the first file", func(f []string) []string { return f[:1] },
			[]FaultKind{MissingFile}, "file part 1 is missing"},
		{"the last file", func(f []string) []string { return f[len(f)-1:] },
			[]FaultKind{Truncated}, "every file after"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir, files := rotated(t)
			for _, f := range tt.remove(files) {
				if err := os.Remove(f); err != nil {
					t.Fatal(err)
				}
			}
			rep, err := Verify(dir)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(faultKinds(rep), tt.kinds) || !strings.Contains(rep.Faults[0].Problem, tt.problem) {
				t.Errorf("faults = %+v; want %v saying %q", rep.Faults, tt.kinds, tt.problem)
			}
		})
	}
}

// TestOpen_RecoversRightAfterARotation covers a writer that died with its
// new file begun but empty of records: recovery starts from the seal that
// ended the file before it.
func TestOpen_RecoversRightAfterARotation(t *testing.T) {
	j := openTest(t, Options{MaxSize: 4 << 10})
	for i := 0; j.w.part < 3; i++ {
		mustAppend(t, j, Record{Call: strconv.Itoa(i), Event: Decided, Decision: Deny, Argv: []string{"x"}})
	}
	mustAppend(t, j, Record{Call: "open", Event: Received})
	dir, file := j.Dir(), j.Path()
	crash(j)
	writeLines(t, file, readLines(t, file)[:1]) // only its opened record
	rec := reopen(t, dir)
	if rec.Fault != nil || rec.Records != 1 || len(rec.Interrupted) != 0 {
		t.Errorf("Recovery = %+v; want the one record after the last seal read", rec)
	}
	mustVerify(t, dir)
}

// A record larger than a whole file goes into the file it finds, after the
// opened record, rather than rotating away a file that holds nothing else.
func TestRotate_ALargeFirstRecordStaysInItsFile(t *testing.T) {
	j := openTest(t, Options{MaxSize: 1 << 10})
	mustAppend(t, j, Record{Call: "big", Event: Received, Reason: strings.Repeat("x", 5000)})
	first := j.Path()
	if want := partName(j.Segment(), 1); filepath.Base(first) != want {
		t.Fatalf("the large first record went to %s, want %s", filepath.Base(first), want)
	}
	mustAppend(t, j, Record{Call: "big", Event: Decided, Decision: Deny})
	var events []Event
	for _, line := range readLines(t, first) {
		var r Record
		if err := decodeRecord(line, &r); err != nil {
			t.Fatal(err)
		}
		events = append(events, r.Event)
	}
	if want := []Event{Opened, Received, Sealed}; !slices.Equal(events, want) || j.w.part != 2 {
		t.Errorf("the first file holds %v and the segment is at part %d; want %v, then part 2", events, j.w.part, want)
	}
}
