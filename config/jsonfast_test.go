package config

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// jsonTexts are JSON texts with every kind of value, escape and spacing the
// two parsers must read alike, and texts one of them must refuse.
var jsonTexts = []string{
	`{}`, `[]`, ` [ ] `, `{"a": {}, "b": [], "c": [[]]}`, `null`, `true`, `false`, `-0.5e+10`, `12`, `"x"`,
	`{"tools": [{"name": "a", "command": "ls {x}", "read_only": true, "timeout": 1.5, "params": {"x": null}}]}`,
	"{\n\t\"a\" :\r\n 1 ,\"b\":[ 1 , 2 ]\n}\n",
	`"esc \" \\ \/ \b \f \n \r \t \u00e9 \ud83d\ude00"`, `"lone \ud800 surrogate"`, "\"bad \xff utf8\"", `"é ü 日本"`,
	`{"a": 1, "a": 2}`, `{"a": {"b": 1, "b": 2}}`, `[{"k": 1}, {"k": 2}]`,
	`{"a": 1,}`, `[1,]`, `{"a" 1}`, `"unterminated`, `01`, `1.`, `tru`, `{"a": 1} x`, ``, `  `, "\"ctl \x01\"",
}

// TestParseValid_SameNodesAsTheDecoder: wherever the fast parser reads a
// text, it gives exactly the decoder's nodes and positions; wherever it
// refuses one, the decoder refuses it too (and says why).
func TestParseValid_SameNodesAsTheDecoder(t *testing.T) {
	texts := append([]string(nil), jsonTexts...)
	files, _ := filepath.Glob("../examples/*.json")
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		texts = append(texts, string(data))
	}
	for _, text := range texts {
		sameParse(t, text)
	}
}

// FuzzParseValid compares the two parsers on any text.
func FuzzParseValid(f *testing.F) {
	for _, s := range jsonTexts {
		f.Add(s)
	}
	f.Fuzz(sameParse)
}

func sameParse(t *testing.T, text string) {
	t.Helper()
	src := &source{name: "t.json", data: []byte(text)}
	fast, ok := parseValid(src, 0, len(text))
	slow, err := parseDecoded(src, 0, len(text))
	switch {
	case ok && err != nil:
		t.Fatalf("%q: the fast parser read it, the decoder said %v", text, err)
	case !ok && err == nil:
		t.Fatalf("%q: the decoder read it, the fast parser refused it", text)
	case ok && !reflect.DeepEqual(fast, slow):
		t.Fatalf("%q: the parsers disagree:\nfast %+v\nslow %+v", text, fast, slow)
	}
}

// TestSourcePosition_IsLineAndColumnAtEveryOffset checks the newline index
// against counting from the start, at every offset of text whose lines
// are empty, long, at the start and at the end.
func TestSourcePosition_IsLineAndColumnAtEveryOffset(t *testing.T) {
	for _, text := range []string{"", "x", "\n", "\n\nab\n", "ab\ncd\n\nefg", "{\n  \"a\": 1\n}\n"} {
		src := &source{name: "t.json", data: []byte(text)}
		for off := -1; off <= len(text)+1; off++ {
			want := "t.json"
			if off >= 0 {
				at := min(off, len(text))
				line := 1 + strings.Count(text[:at], "\n")
				col := at - strings.LastIndexByte(text[:at], '\n')
				want = fmt.Sprintf("t.json:%d:%d", line, col)
			}
			if got := src.position(off); got != want {
				t.Errorf("%q at %d: %s, want %s", text, off, got, want)
			}
		}
	}
}
