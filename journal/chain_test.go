package journal

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"io/fs"
	"reflect"
	"strings"
	"testing"
)

func TestAppend_Chain(t *testing.T) {
	j := openTest(t, Options{})
	var appended []Record
	for _, r := range lifeOfCall("c1") {
		appended = append(appended, mustAppend(t, j, r))
	}
	appended = append(appended, mustAppend(t, j, Record{Call: "c2", Event: Received,
		Argv: []string{"echo", "<&> é\u202e\u200b\x1b[2K"}}))
	appended = append(appended, mustAppend(t, j, Record{Call: "c2", Event: Decided, Decision: Deny, Ending: Denied}))
	file := j.Path()
	if err := j.Close(); err != nil {
		t.Fatal(err)
	}

	// The file is its opened record, the records appended, its closing seal.
	lines := readLines(t, file)
	if len(lines) != len(appended)+2 {
		t.Fatalf("file has %d lines, appended %d records", len(lines), len(appended))
	}
	prev := ""
	for i, line := range lines {
		var r Record
		if err := decodeRecord(line, &r); err != nil {
			t.Fatal(err)
		}
		if i > 0 && i <= len(appended) {
			r = appended[i-1]
		}
		t.Run(string(r.Event), func(t *testing.T) {
			if r.Seq != int64(i+1) {
				t.Errorf("seq = %d, want %d", r.Seq, i+1)
			}
			if r.Prev != prev {
				t.Errorf("prev = %q, want the hash before it, %q", r.Prev, prev)
			}
			// The hash is SHA-256 of the line with the hash field cut out.
			cut := bytes.Index(line, []byte(`,"hash":"`))
			body := append(append([]byte{}, line[:cut]...), '}')
			sum := sha256.Sum256(body)
			if want := hex.EncodeToString(sum[:]); r.Hash != want {
				t.Errorf("hash = %s, want sha256 of the line without it, %s", r.Hash, want)
			}
			if !bytes.HasSuffix(line, []byte(`"hash":"`+r.Hash+`"}`)) {
				t.Errorf("line does not end with its hash field: %s", line)
			}
		})
		prev = r.Hash
	}
	if first, last := string(lines[0]), string(lines[len(lines)-1]); !strings.Contains(first, `"event":"opened"`) ||
		!strings.Contains(last, `"event":"closed"`) {
		t.Errorf("the file does not begin opened and end closed:\n%s\n%s", first, last)
	}

	read, err := Read(j.Dir())
	if err != nil {
		t.Fatal(err)
	}
	for i := range read {
		if read[i].Segment != j.Segment() {
			t.Errorf("record %d read with segment %q, want %q", i, read[i].Segment, j.Segment())
		}
		// Time loses its monotonic reading on the way through the file.
		read[i].Time, appended[i].Time = read[i].Time.UTC(), appended[i].Time.UTC()
		read[i].Args, appended[i].Args, read[i].Segment = nil, nil, ""
	}
	if !reflect.DeepEqual(read, appended) {
		t.Errorf("Read returned\n%+v\nAppend returned\n%+v", read, appended)
	}
	rep := mustVerify(t, j.Dir())
	if rep.Records != int64(len(lines)) || len(rep.Segments) != 1 || rep.Segments[0].Head != prev ||
		rep.Segments[0].State != SegmentClosed || rep.Seals != 1 {
		t.Errorf("Verify = %+v; want %d records in one closed segment with head %s and one seal", rep, len(lines), prev)
	}
	if !bytes.Contains(lines[len(lines)-3], []byte(`<&> é\u202e\u200b\u001b[2K`)) {
		t.Errorf("argv is not stored readable and escaped: %s", lines[len(lines)-3])
	}
}

// rehash recomputes a line's hash field after its body was changed, as a
// forger who knows the format would.
func rehash(line []byte) []byte {
	cut := bytes.LastIndex(line, []byte(`,"hash":"`))
	body := append(append([]byte{}, line[:cut]...), '}')
	sum := sha256.Sum256(body)
	return append(line[:cut:cut], []byte(`,"hash":"`+hex.EncodeToString(sum[:])+`"}`)...)
}

func TestVerify_DetectsTampering(t *testing.T) {
	// The file: line 1 opened (seq 1), lines 2-5 call c1, 6-9 call c2,
	// line 10 the closing seal.
	tests := []struct {
		name     string
		tamper   func(lines [][]byte) [][]byte
		seq      int64
		line     int
		problem  string
		wantRecs int64
	}{
		{
			name: "edited middle record",
			tamper: func(l [][]byte) [][]byte {
				l[5] = bytes.Replace(l[5], []byte("TODO"), []byte("rm -rf"), 1)
				return l
			},
			seq: 6, line: 6, problem: "was changed", wantRecs: 10,
		},
		{
			name: "edited middle record with its hash recomputed",
			tamper: func(l [][]byte) [][]byte {
				l[5] = rehash(bytes.Replace(l[5], []byte("TODO"), []byte("rm -rf"), 1))
				return l
			},
			seq: 7, line: 7, problem: "prev is not the hash", wantRecs: 10,
		},
		{
			name:   "deleted middle record",
			tamper: func(l [][]byte) [][]byte { return append(l[:4], l[5:]...) },
			seq:    6, line: 5, problem: "prev is not the hash", wantRecs: 9,
		},
		{
			name:   "deleted first record",
			tamper: func(l [][]byte) [][]byte { return l[1:] },
			seq:    2, line: 1, problem: "prev is not the hash", wantRecs: 9,
		},
		{
			name: "swapped records",
			tamper: func(l [][]byte) [][]byte {
				l[3], l[4] = l[4], l[3]
				return l
			},
			seq: 5, line: 4, problem: "prev is not the hash", wantRecs: 10,
		},
		{
			name: "record replayed twice",
			tamper: func(l [][]byte) [][]byte {
				return append(l[:6:6], append([][]byte{l[5]}, l[6:]...)...)
			},
			seq: 6, line: 7, problem: "prev is not the hash", wantRecs: 11,
		},
		{
			name: "hash field removed",
			tamper: func(l [][]byte) [][]byte {
				l[7] = append(l[7][:bytes.LastIndex(l[7], []byte(`,"hash"`))], '}')
				return l
			},
			seq: 8, line: 8, problem: "does not end with its hash field", wantRecs: 10,
		},
		{
			name: "line that is not JSON",
			tamper: func(l [][]byte) [][]byte {
				l[3] = []byte("not a record")
				return l
			},
			seq: 4, line: 4, problem: "not a JSON record", wantRecs: 9,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir, file := journalOf(t, 2, Options{})
			mustVerify(t, dir)
			writeLines(t, file, tt.tamper(readLines(t, file)))

			for _, path := range []string{file, dir} {
				rep, err := Verify(path)
				if err != nil {
					t.Fatal(err)
				}
				if len(rep.Faults) == 0 {
					t.Fatalf("Verify(%s) found no fault in %d records", path, rep.Records)
				}
				f := rep.Faults[0]
				if f.Kind != BrokenChain || f.Seq != tt.seq || f.Line != tt.line || !strings.Contains(f.Problem, tt.problem) {
					t.Errorf("Verify(%s): fault = %v; want record %d (line %d) with %q", path, &f, tt.seq, tt.line, tt.problem)
				}
				if rep.Records != tt.wantRecs {
					t.Errorf("records = %d, want %d", rep.Records, tt.wantRecs)
				}
			}
		})
	}
}

func TestVerify_MissingJournal(t *testing.T) {
	for _, path := range []string{t.TempDir() + "/none.jsonl", t.TempDir() + "/none"} {
		if _, err := Verify(path); !errors.Is(err, fs.ErrNotExist) {
			t.Errorf("Verify(%s): err = %v, want not-exist", path, err)
		}
	}
}
