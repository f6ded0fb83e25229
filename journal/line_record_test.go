package journal

import (
	"bytes"
	"encoding/json"
	"testing"
	"time"
)

// viaEncodingJSON is r as encoding/json writes it, HTML escaping off.
func viaEncodingJSON(t testing.TB, r *Record) []byte {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(r); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func checkAppendRecord(t *testing.T, r *Record) {
	t.Helper()
	e := newLineEncoder()
	if err := e.appendRecord(r); err != nil {
		t.Fatal(err)
	}
	if got, want := e.buf.Bytes(), viaEncodingJSON(t, r); !bytes.Equal(got, want) {
		t.Errorf("appendRecord\n%s\nencoding/json\n%s", got, want)
	}
}

func TestAppendRecord_AsEncodingJSON(t *testing.T) {
	exit := 3
	every := Record{Seq: 12, Time: time.Date(2026, 12, 2, 1, 2, 3, 456789000, time.UTC), Call: "c-1", Event: Finished,
		Tool: "t<o>&l", Client: "cl\"i\\ent", Session: "s\n\t\r\b\f\x01\x7f", Args: map[string]any{"b": []any{"x<y", 1.5, true, nil}, "a": "é\u2028"},
		ReplayOf: "r", Path: "/bin/echo", Argv: []string{"echo", "a\u2029b", "\xff\xfe"}, Cwd: "/w", Env: []string{"K=v"},
		Stdin: &Blob{Text: "in", Bytes: 2}, CommandHash: "h", Decision: Allow, Decider: ByOperator, Rule: "r1", Reason: "why",
		Edit: &Edit{Before: []string{"a"}, After: []string{}}, Ending: Exited, Exit: &exit, Signal: "SIGTERM",
		Duration: 1234, TimedOut: true, Confinement: "landlock", Error: "e",
		Stdout: &Blob{Base64: []byte{0xff, 0}, Bytes: 9, SHA256: "ab", Truncated: true}, Stderr: &Blob{},
		TornBytes: 5, Segment: "seg", Part: 2, Open: []OpenCall{{Call: "c", State: Started}}, Seal: "mac", Prev: "p", Hash: "x"}
	for _, tc := range []struct {
		name string
		r    Record
	}{
		{"every field", every},
		{"the least", Record{Event: Received}},
		{"an edit of nil lists", Record{Event: Edited, Edit: &Edit{}}},
		{"empty lists and args", Record{Event: Received, Argv: []string{}, Env: []string{}, Args: map[string]any{}, Open: []OpenCall{}}},
		{"a local time", Record{Event: Received, Time: time.Date(2026, 1, 2, 3, 4, 5, 0, time.FixedZone("x", 3600))}},
	} {
		t.Run(tc.name, func(t *testing.T) { checkAppendRecord(t, &tc.r) })
	}
}

func TestAppendRecord_YearOutOfRange(t *testing.T) {
	e := newLineEncoder()
	if err := e.appendRecord(&Record{Event: Received, Time: time.Date(10000, 1, 1, 0, 0, 0, 0, time.UTC)}); err == nil {
		t.Error("a year past 9999 was encoded")
	}
}

func FuzzAppendRecord(f *testing.F) {
	f.Add("plain", "a\"b\\c\n", []byte("\xff\x00é"), int64(7))
	f.Add("\u2028\u2029\x7f", "<>&", []byte{}, int64(-1))
	f.Fuzz(func(t *testing.T, s1, s2 string, raw []byte, n int64) {
		r := Record{Seq: n, Event: Event(s1), Tool: s2, Argv: []string{s1, s2}, Reason: string(raw),
			Args: map[string]any{s1: s2}, Stdout: &Blob{Text: s2, Base64: raw, Bytes: n}, Duration: time.Duration(n)}
		checkAppendRecord(t, &r)
	})
}
