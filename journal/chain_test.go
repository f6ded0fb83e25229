package journal

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"os"
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
	if err := j.Close(); err != nil {
		t.Fatal(err)
	}

	lines := readLines(t, j.Path())
	if len(lines) != len(appended) {
		t.Fatalf("file has %d lines, appended %d records", len(lines), len(appended))
	}
	prev := ""
	for i, line := range lines {
		r := appended[i]
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

	read, err := Read(j.Path())
	if err != nil {
		t.Fatal(err)
	}
	for i := range read {
		// Time loses its monotonic reading on the way through the file.
		read[i].Time, appended[i].Time = read[i].Time.UTC(), appended[i].Time.UTC()
		read[i].Args, appended[i].Args = nil, nil
	}
	if !reflect.DeepEqual(read, appended) {
		t.Errorf("Read returned\n%+v\nAppend returned\n%+v", read, appended)
	}
	rep, err := Verify(j.Path())
	if err != nil || rep.Fault != nil || rep.Records != int64(len(appended)) || rep.Head != prev {
		t.Errorf("Verify = %+v, %v; want %d records, head %s, no fault", rep, err, len(appended), prev)
	}
	if !bytes.Contains(lines[len(lines)-1], []byte(`<&> é\u202e\u200b\u001b[2K`)) {
		t.Errorf("argv is not stored readable and escaped: %s", lines[len(lines)-1])
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
				l[4] = bytes.Replace(l[4], []byte("TODO"), []byte("rm -rf"), 1)
				return l
			},
			seq: 5, line: 5, problem: "was changed", wantRecs: 8,
		},
		{
			name: "edited middle record with its hash recomputed",
			tamper: func(l [][]byte) [][]byte {
				l[4] = rehash(bytes.Replace(l[4], []byte("TODO"), []byte("rm -rf"), 1))
				return l
			},
			seq: 6, line: 6, problem: "prev is not the hash", wantRecs: 8,
		},
		{
			name:   "deleted middle record",
			tamper: func(l [][]byte) [][]byte { return append(l[:3], l[4:]...) },
			seq:    5, line: 4, problem: "prev is not the hash", wantRecs: 7,
		},
		{
			name:   "deleted first record",
			tamper: func(l [][]byte) [][]byte { return l[1:] },
			seq:    2, line: 1, problem: "prev is not the hash", wantRecs: 7,
		},
		{
			name: "swapped records",
			tamper: func(l [][]byte) [][]byte {
				l[2], l[3] = l[3], l[2]
				return l
			},
			seq: 4, line: 3, problem: "prev is not the hash", wantRecs: 8,
		},
		{
			name: "record replayed twice",
			tamper: func(l [][]byte) [][]byte {
				return append(l[:5:5], append([][]byte{l[4]}, l[5:]...)...)
			},
			seq: 5, line: 6, problem: "prev is not the hash", wantRecs: 9,
		},
		{
			name: "hash field removed",
			tamper: func(l [][]byte) [][]byte {
				l[6] = append(l[6][:bytes.LastIndex(l[6], []byte(`,"hash"`))], '}')
				return l
			},
			seq: 7, line: 7, problem: "does not end with its hash field", wantRecs: 8,
		},
		{
			name: "line that is not JSON",
			tamper: func(l [][]byte) [][]byte {
				l[2] = []byte("not a record")
				return l
			},
			seq: 3, line: 3, problem: "not a JSON record", wantRecs: 7,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := journalOf(t, 2)
			if rep, err := Verify(path); err != nil || rep.Fault != nil {
				t.Fatalf("untouched journal: Verify = %+v, %v", rep, err)
			}
			writeLines(t, path, tt.tamper(readLines(t, path)))

			rep, err := Verify(path)
			if err != nil {
				t.Fatal(err)
			}
			f := rep.Fault
			if f == nil {
				t.Fatalf("Verify found no fault in %d records", rep.Records)
			}
			if f.Seq != tt.seq || f.Line != tt.line || !strings.Contains(f.Problem, tt.problem) {
				t.Errorf("fault = %v; want record %d (line %d) with %q", f, tt.seq, tt.line, tt.problem)
			}
			if rep.Records != tt.wantRecs {
				t.Errorf("records = %d, want %d", rep.Records, tt.wantRecs)
			}
		})
	}
}

func TestVerify_MissingFile(t *testing.T) {
	_, err := Verify(t.TempDir() + "/none.jsonl")
	if !os.IsNotExist(err) {
		t.Errorf("Verify of a missing file: err = %v, want not-exist", err)
	}
}
