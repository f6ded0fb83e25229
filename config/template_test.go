package config

import (
	"reflect"
	"testing"
)

func TestParseWord(t *testing.T) {
	tests := []struct {
		in   string
		want word
	}{
		{"plain", word{{text: "plain"}}},
		{"", nil}, // an empty word ("") has no parts
		{"{x}", word{{param: "x"}}},
		{"+{format}", word{{text: "+"}, {param: "format"}}},
		{"--name={n}.txt", word{{text: "--name="}, {param: "n"}, {text: ".txt"}}},
		{"{a}{b}", word{{param: "a"}, {param: "b"}}},
		{"{}", word{{text: "{}"}}},
		{"{{x}}", word{{text: "{x}"}}},
		{"{{", word{{text: "{"}}},
		{"}}", word{{text: "}"}}},
		{"{files...}", word{{param: "files", list: true}}},
		{"{print $1}", word{{text: "{print $1}"}}},
		{"{file-name}", word{{text: "{file-name}"}}},
		{"{1x}", word{{text: "{1x}"}}},
		{"a{", word{{text: "a{"}}},
		{"}", word{{text: "}"}}},
		{"{_ok9}", word{{param: "_ok9"}}},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			got, err := parseWord(tt.in)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Fatalf("parseWord(%q) = %#v, want %#v", tt.in, got, tt.want)
			}
			again, err := parseWord(got.String())
			if err != nil || !reflect.DeepEqual(again, got) {
				t.Fatalf("String() %q does not parse back to the same word: %#v, %v", got.String(), again, err)
			}
		})
	}
}

func TestParseWord_ListMustBeWholeWord(t *testing.T) {
	for _, in := range []string{"-I{dirs...}", "{dirs...}x", "{a}{b...}"} {
		if _, err := parseWord(in); err == nil {
			t.Errorf("parseWord(%q) accepted a list placeholder inside a word", in)
		}
	}
}

func TestWordFill(t *testing.T) {
	w, _ := parseWord("--out={dir}/{name}.txt")
	got := w.fill(map[string]string{"dir": "/a b", "name": "x;y"}, nil)
	if got != "--out=/a b/x;y.txt" {
		t.Fatalf("fill = %q", got)
	}
	if w.leadingParam() {
		t.Error("a word starting with fixed text reports a leading placeholder")
	}
	if w2, _ := parseWord("{a}x"); !w2.leadingParam() {
		t.Error("a word starting with a placeholder does not report it")
	}
}
