package journal

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
)

var (
	prevField = regexp.MustCompile(`"prev":"[0-9a-f]{64}"`)
	seqField  = regexp.MustCompile(`^\{"seq":\d+,`)
)

// rechain rewrites lines from index from on as a forger who knows the
// format but not the key would: each line numbered after the one before,
// its prev set to that line's hash, and its own hash recomputed.
func rechain(lines [][]byte, from int) [][]byte {
	for i := from; i < len(lines); i++ {
		lines[i] = seqField.ReplaceAll(lines[i], []byte(`{"seq":`+strconv.Itoa(i+1)+`,`))
		if i > 0 {
			stated, _, _ := lineHashes(lines[i-1])
			lines[i] = prevField.ReplaceAll(lines[i], []byte(`"prev":"`+stated+`"`))
		}
		lines[i] = rehash(lines[i])
	}
	return lines
}

// sealed returns a closed journal of 6 calls sealed every 5 records, and
// its one file.
func sealed(t *testing.T) (dir, file string) {
	t.Helper()
	return journalOf(t, 6, Options{SealEvery: 5})
}

// indexOf returns the index of the last line holding s.
func indexOf(lines [][]byte, s string) int {
	for i := len(lines) - 1; i >= 0; i-- {
		if bytes.Contains(lines[i], []byte(s)) {
			return i
		}
	}
	return -1
}

func TestVerify_DetectsTruncation(t *testing.T) {
	tests := []struct {
		name    string
		cut     func(t *testing.T, dir string, lines [][]byte) [][]byte
		problem string
	}{
		{"the last lines cut, as head -n does", func(_ *testing.T, _ string, l [][]byte) [][]byte {
			return l[:len(l)-4]
		}, "its head file names record"},
		{"cut back to an earlier seal", func(_ *testing.T, _ string, l [][]byte) [][]byte {
			return l[:indexOf(l[:len(l)-1], `"event":"sealed"`)+1]
		}, "its head file names record"},
		{"only the closing seal cut", func(_ *testing.T, _ string, l [][]byte) [][]byte {
			return l[:len(l)-1]
		}, "its head file names record"},
		{"cut, and the head file deleted", func(t *testing.T, dir string, l [][]byte) [][]byte {
			removeHeads(t, dir)
			return l[:len(l)-4]
		}, "does not end with its closing seal, and no process is writing it"},
		{"closing seal cut, head file deleted", func(t *testing.T, dir string, l [][]byte) [][]byte {
			removeHeads(t, dir)
			return l[:len(l)-1]
		}, "does not end with its closing seal"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir, file := sealed(t)
			writeLines(t, file, tt.cut(t, dir, readLines(t, file)))
			rep, err := Verify(dir)
			if err != nil {
				t.Fatal(err)
			}
			if len(rep.Faults) == 0 || rep.Faults[0].Kind != Truncated || !strings.Contains(rep.Faults[0].Problem, tt.problem) {
				t.Fatalf("faults = %+v; want a truncation: %q", rep.Faults, tt.problem)
			}
			if slices.Contains(faultKinds(rep), BrokenChain) {
				t.Errorf("a cut reads as a broken chain too: %+v", rep.Faults)
			}
		})
	}
}

func removeHeads(t *testing.T, dir string) {
	heads, _ := filepath.Glob(filepath.Join(dir, "*"+headSuffix))
	for _, h := range heads {
		if err := os.Remove(h); err != nil {
			t.Fatal(err)
		}
	}
}

func TestVerify_DetectsARecomputedRewrite(t *testing.T) {
	tests := []struct {
		name   string
		change func(lines [][]byte) [][]byte
	}{
		{"a record changed and every hash after it recomputed", func(l [][]byte) [][]byte {
			l[2] = bytes.Replace(l[2], []byte("read-only"), []byte("operator!"), 1)
			return rechain(l, 2)
		}},
		{"a record removed and the chain recomputed", func(l [][]byte) [][]byte {
			return rechain(slices.Delete(l, 3, 4), 3)
		}},
		{"the seals recomputed too, without the key", func(l [][]byte) [][]byte {
			l[2] = bytes.Replace(l[2], []byte("read-only"), []byte("operator!"), 1)
			for i, line := range l {
				if isSealLine(line) {
					l[i] = regexp.MustCompile(`"seal":"[0-9a-f]{64}"`).ReplaceAll(line,
						[]byte(`"seal":"`+strings.Repeat("0", 64)+`"`))
				}
			}
			return rechain(l, 2)
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir, file := sealed(t)
			lines := tt.change(readLines(t, file))
			writeLines(t, file, lines)
			// The forgery holds as an unkeyed chain: without seals it would pass.
			var c chain
			for _, l := range lines {
				c.add(l)
			}
			if c.fault != nil {
				t.Fatalf("the forged chain does not hold as a chain: %v", c.fault)
			}
			rep, err := Verify(dir)
			if err != nil {
				t.Fatal(err)
			}
			if len(rep.Faults) == 0 || rep.Faults[0].Kind != Rewritten || !strings.Contains(rep.Faults[0].Problem, "seal does not match") {
				t.Fatalf("faults = %+v; want the first seal after the change not to match", rep.Faults)
			}
			if slices.Contains(faultKinds(rep), BrokenChain) {
				t.Errorf("faults = %+v; a recomputed chain has no broken link to show", rep.Faults)
			}
		})
	}
}

func TestVerify_DetectsRecordsAfterTheClose(t *testing.T) {
	dir, file := sealed(t)
	lines := readLines(t, file)
	extra := append([]byte{}, lines[1]...)
	extra = bytes.Replace(extra, []byte(`"seq":2,`), []byte(`"seq":`+strconv.Itoa(len(lines)+1)+`,`), 1)
	writeLines(t, file, rechain(append(lines, extra), len(lines)))
	rep, err := Verify(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Faults) == 0 || !strings.Contains(rep.Faults[0].Problem, "follows the segment's closing seal") {
		t.Errorf("faults = %+v; want the record after the close named", rep.Faults)
	}
}

func TestVerify_HeadFileChanged(t *testing.T) {
	dir, _ := sealed(t)
	heads, _ := filepath.Glob(filepath.Join(dir, "*"+headSuffix))
	data, _ := os.ReadFile(heads[0])
	os.WriteFile(heads[0], bytes.Replace(data, []byte(`"closed":true`), []byte(`"closed":false`), 1), 0o600)
	rep, err := Verify(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Faults) != 1 || rep.Faults[0].Kind != Rewritten || !strings.Contains(rep.Faults[0].Problem, "head file") {
		t.Errorf("faults = %+v; want the head file's MAC not to match", rep.Faults)
	}
}

func TestVerify_WithoutTheKeyChecksTheChainOnly(t *testing.T) {
	dir, _ := sealed(t)
	if err := os.Remove(filepath.Join(dir, keyName)); err != nil {
		t.Fatal(err)
	}
	rep := mustVerify(t, dir)
	if rep.Seals != 0 || len(rep.Notes) != 1 || !strings.Contains(rep.Notes[0], "seals and head files were not checked") {
		t.Errorf("Verify = %+v; want a note that seals went unchecked", rep)
	}
	if len(rep.Proves) != 1 {
		t.Errorf("Proves = %q; without the key only the chain", rep.Proves)
	}
}

func TestVerify_OldSingleFile(t *testing.T) {
	path := oldJournal(t, 3)
	rep := mustVerify(t, path)
	if rep.Records != 12 || rep.Seals != 0 || len(rep.Notes) != 1 || !strings.Contains(rep.Notes[0], "no seals") {
		t.Errorf("Verify = %+v; want 12 records and a note that the file has no seals", rep)
	}
	if len(rep.CannotProve) == 0 || !strings.Contains(rep.CannotProve[0], "cut from the end") {
		t.Errorf("CannotProve = %q; want it to say a cut end goes unseen", rep.CannotProve)
	}
	if calls := Calls(mustRead(t, path)); len(calls) != 3 || calls[0].Ending != Exited {
		t.Errorf("calls = %+v", calls)
	}
}

// oldJournal writes a single-file journal as assent wrote them before
// segments and seals: records from seq 1 with no opened record and no
// seals, and no ending on any record.
func oldJournal(t *testing.T, calls int) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "journal.jsonl")
	enc := newLineEncoder()
	var out []byte
	seq, prev := int64(0), ""
	start := time.Date(2026, 11, 1, 9, 0, 0, 0, time.UTC)
	for i := 1; i <= calls; i++ {
		for _, r := range lifeOfCall("old" + strconv.Itoa(i)) {
			seq++
			r.Seq, r.Prev, r.Ending, r.Time = seq, prev, "", start.Add(time.Duration(seq)*time.Second)
			r.Stdout = r.Stdout.store(DefaultOutputCap, nil)
			hash, err := enc.encode(&r)
			if err != nil {
				t.Fatal(err)
			}
			out, prev = append(out, enc.line()...), hash
		}
	}
	if err := os.WriteFile(path, out, 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

func mustRead(t *testing.T, path string) []Record {
	t.Helper()
	recs, err := Read(path)
	if err != nil {
		t.Fatal(err)
	}
	return recs
}

func TestSeal_AfterTheInterval(t *testing.T) {
	j := openTest(t, Options{SealInterval: 5 * time.Millisecond})
	mustAppend(t, j, Record{Call: "c", Event: Decided, Decision: Deny})
	file := j.Path()
	deadline := time.Now().Add(10 * time.Second)
	for indexOf(readLines(t, file), `"event":"sealed"`) < 0 {
		if time.Now().After(deadline) {
			t.Fatal("no seal followed a record that waited the interval")
		}
		time.Sleep(time.Millisecond)
	}
	// The head file follows once the seal is on disk.
	for {
		if h, err := readHead(j.Dir(), j.Segment()); err == nil && h.Seq == 3 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the head file never named the seal")
		}
		time.Sleep(time.Millisecond)
	}
}
