package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/assent-sh/assent/journal"
)

// segmentFile returns the one file of a test journal's one segment.
func segmentFile(t *testing.T, dir string) string {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(dir, "*.1.jsonl"))
	if err != nil || len(files) != 1 {
		t.Fatalf("segment files %v, %v", files, err)
	}
	return files[0]
}

func TestLog_Verify(t *testing.T) {
	good := testJournal(t)
	tampered := testJournal(t)
	file := segmentFile(t, tampered)
	data, _ := os.ReadFile(file)
	os.WriteFile(file, bytes.Replace(data, []byte("read-only tool"), []byte("read-all! tool"), 1), 0o600)
	cut := testJournal(t)
	file = segmentFile(t, cut)
	data, _ = os.ReadFile(file)
	lines := bytes.SplitAfter(data, []byte("\n"))
	os.WriteFile(file, bytes.Join(lines[:len(lines)-4], nil), 0o600)
	old := oldJournalFile(t)

	tests := []struct {
		name   string
		args   []string
		code   int      // 0: no error
		stdout []string // patterns
		say    string   // in the error
	}{
		{name: "intact", args: []string{"--journal", good, "--verify"},
			stdout: []string{`: 20 records in 1 segment, 1 seal, intact\n`, `This shows, when intact:\n  - no record was changed`,
				`It cannot show:\n  - the records after a segment's last seal`, `whoever can read the key \(.*/key\) can forge`}},
		{name: "intact, json", args: []string{"--journal", good, "--verify", "--json"},
			stdout: []string{`^\{"records":20,"seals":1,`, `"state":"closed"`, `"cannot_prove":\[`}},
		{name: "a record changed", args: []string{"--journal", tampered, "--verify"}, code: exitChainBroken,
			stdout: []string{`chain: record 3 \(.*\.1\.jsonl line 3\): its hash does not match its contents`},
			say:    "does not verify: 1 problem, the first: record 3"},
		{name: "cut short", args: []string{"--journal", cut, "--verify"}, code: exitChainBroken,
			stdout: []string{`truncated: record 20 .*its head file names record 20 .*records were cut from its end`}},
		{name: "cut short, json", args: []string{"--journal", cut, "--verify", "--json"}, code: exitChainBroken,
			stdout: []string{`"faults":\[\{"kind":"truncated"`}},
		{name: "an old single file", args: []string{"--journal", old, "--verify"},
			stdout: []string{`old.jsonl: 17 records, 0 seals, intact, head [0-9a-f]{64}\n`, `note: the file has no seals`,
				`It cannot show:\n  - that no records were cut from the end`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out, _, err := runLog(t, tt.args...)
			if tt.code == 0 && err != nil {
				t.Fatalf("err = %v", err)
			}
			if tt.code != 0 && (err == nil || exitCode(err) != tt.code || !strings.Contains(err.Error(), tt.say)) {
				t.Fatalf("err = %v (exit %d), want exit %d saying %q", err, exitCode(err), tt.code, tt.say)
			}
			for _, p := range tt.stdout {
				if !regexp.MustCompile(p).MatchString(out) {
					t.Errorf("stdout lacks %s:\n%s", p, out)
				}
			}
		})
	}
}

func TestLog_Head(t *testing.T) {
	dir := testJournal(t)
	out, _, err := runLog(t, "--journal", dir, "--head")
	if err != nil {
		t.Fatal(err)
	}
	rep, err := journal.Verify(dir)
	if err != nil {
		t.Fatal(err)
	}
	s := rep.Segments[0]
	if want := s.Segment + " 20 " + s.Head + " closed\n"; out != want {
		t.Errorf("--head printed %q, want %q", out, want)
	}
	out, _, err = runLog(t, "--journal", dir, "--head", "--json")
	var heads []journal.Head
	if err != nil || json.Unmarshal([]byte(out), &heads) != nil || len(heads) != 1 || heads[0].Hash != s.Head {
		t.Errorf("--head --json printed %q, %v", out, err)
	}
}

// --head reads an old single-file journal wherever log and --verify do:
// given the file, and given the directory it sits beside (the old default
// location, not yet adopted).
func TestLog_HeadOfAnOldSingleFile(t *testing.T) {
	old := oldJournalFile(t)
	rep, err := journal.Verify(old)
	if err != nil {
		t.Fatal(err)
	}
	want := "old.jsonl 17 " + rep.Head + " open\n"
	for _, path := range []string{old, strings.TrimSuffix(old, ".jsonl")} {
		if out, _, err := runLog(t, "--journal", path, "--head"); err != nil || out != want {
			t.Errorf("--journal %s --head printed %q, %v; want %q", path, out, err, want)
		}
	}
}
