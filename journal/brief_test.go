package journal

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
	"time"
)

// briefLines are lines the encoder writes and lines it never would.
func briefLines(t testing.TB) [][]byte {
	enc := newLineEncoder()
	var lines [][]byte
	out := NewBlob([]byte("ok\n\x00\xff"), 0).store(DefaultOutputCap, nil)
	for _, r := range append(lifeOfCall("c1"),
		Record{Call: "c2", Event: Edited, Edit: &Edit{Before: []string{"rm", "-rf", "/"}, After: []string{}}},
		Record{Call: "c3", Event: Finished, Exit: ExitCode(-1), Signal: "SIGKILL", TimedOut: true, Stdout: out,
			Reason: "quote \" back\\slash \t tab \u00e9 \u202e bidi \x1b esc <&>", Args: map[string]any{"n": json.Number("1e3")}},
		Record{Event: Sealed, Open: []OpenCall{{"a", Started}}, Seal: strings.Repeat("ab", 32)},
		Record{Event: Opened, Segment: "20261201T000000Z-abc", Part: 3},
	) {
		r.Time = time.Date(2026, 12, 1, 10, 0, 0, 123456789, time.UTC)
		if _, err := enc.encode(&r); err != nil {
			t.Fatal(err)
		}
		lines = append(lines, append([]byte(nil), enc.line()[:len(enc.line())-1]...))
	}
	for _, l := range []string{
		`{}`, `{"seq":1}`, `{ "seq" : 7 , "call" : "x" }`, `{"Tool":"case"}`, `{"seq":1.5}`, `{"seq":01}`,
		`{"seq":-0}`, `{"exit":null,"argv":null,"edit":null}`, `{"argv":["a"],"argv":null}`, `{"argv":["a",null]}`,
		`{"reason":"\ud83d\ude00"}`, `{"reason":"\u00e9\/"}`, `{"reason":"bad \x"}`, `{"time":"not a time"}`,
		`{"time":null}`, `{"args":{"a":[1,{"b":null}],"c":-1.5e-3}}`, `{"args":{"a":}}`, `{"seq":1}x`, `{"seq":1,}`,
		`{"tool":5}`, `{"timed_out":"yes"}`, `{"edit":{"before":["a"],"x":1}}`, `{"unknown":1}`, "{\"reason\":\"\xff\"}",
		`{"exit":99999999999999999999}`, `[1]`, `{"seq":1`,
	} {
		lines = append(lines, []byte(l))
	}
	return lines
}

// checkBrief holds the scanner to encoding/json on one line.
func checkBrief(t *testing.T, line []byte) {
	var want briefRecord
	wantErr := json.Unmarshal(line, &want)
	var got Record
	gotErr := decodeBrief(line, &got)
	if (gotErr != nil) != (wantErr != nil) {
		t.Fatalf("%s: decodeBrief err %v, encoding/json err %v", line, gotErr, wantErr)
	}
	if wantErr != nil {
		return
	}
	var viaJSON Record
	want.into(&viaJSON)
	if !reflect.DeepEqual(got, viaJSON) {
		t.Errorf("%s:\nscanned %+v\njson    %+v", line, got, viaJSON)
	}
}

func TestDecodeBrief_AgreesWithEncodingJSON(t *testing.T) {
	for _, line := range briefLines(t) {
		t.Run(string(line), func(t *testing.T) { checkBrief(t, line) })
	}
}

func TestDecodeBrief_ScansWhatTheEncoderWrites(t *testing.T) {
	for _, line := range briefLines(t)[:9] {
		var b briefRecord
		if scan := (briefScan{b: line}); !scan.record(&b) {
			t.Errorf("the scanner leaves an encoder's line to encoding/json: %s", line)
		}
	}
}

func FuzzDecodeBrief(f *testing.F) {
	for _, line := range briefLines(f) {
		f.Add(line)
	}
	f.Fuzz(func(t *testing.T, line []byte) { checkBrief(t, line) })
}

// checkHead holds decodeHead to encoding/json on one line.
func checkHead(t *testing.T, line []byte) {
	var want head
	wantErr := json.Unmarshal(line, &want)
	var got head
	gotErr := decodeHead(line, &got)
	if (gotErr != nil) != (wantErr != nil) {
		t.Fatalf("%s: decodeHead err %v, encoding/json err %v", line, gotErr, wantErr)
	}
	if wantErr == nil && !reflect.DeepEqual(got, want) {
		t.Errorf("%s:\nscanned %+v\njson    %+v", line, got, want)
	}
}

func headLines(t testing.TB) [][]byte {
	return append(briefLines(t),
		[]byte(`{"open":[{"call":"a","state":"started"},{"call":"b","state":null}],"seal":"x"}`),
		[]byte(`{"open":[{"call":"a","State":"started"}]}`), []byte(`{"open":[{}],"open":null}`),
		[]byte(`{"open":[{"call":"a"} ]}`), []byte(`{"open":[1]}`), []byte(`{"open":[{"call":"a",}]}`))
}

func TestDecodeHead_AgreesWithEncodingJSON(t *testing.T) {
	for _, line := range headLines(t) {
		t.Run(string(line), func(t *testing.T) { checkHead(t, line) })
	}
	for _, line := range briefLines(t)[:9] {
		var h head
		if s := (briefScan{b: line}); !s.object(func(key string) bool { return s.headField(key, &h) }) {
			t.Errorf("the scanner leaves an encoder's line to encoding/json: %s", line)
		}
	}
}

func FuzzDecodeHead(f *testing.F) {
	for _, line := range headLines(f) {
		f.Add(line)
	}
	f.Fuzz(func(t *testing.T, line []byte) { checkHead(t, line) })
}

func TestRecordKey_KnowsEveryField(t *testing.T) {
	rt := reflect.TypeFor[Record]()
	for i := range rt.NumField() {
		key, _, _ := strings.Cut(rt.Field(i).Tag.Get("json"), ",")
		if key == "" || key == "-" {
			continue
		}
		if got := recordKey([]byte(key)); got != key {
			t.Errorf("recordKey(%q) = %q: lines with field %s leave the fast scan", key, got, rt.Field(i).Name)
		}
	}
}
