package config

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/assent-sh/assent/exec"
)

// TestTextProblem_RefusesInvisibleCharacters sends each character that was
// accepted raw and shown as nothing (or as blank) through a tool call: all
// are refused, naming the code point.
func TestTextProblem_RefusesInvisibleCharacters(t *testing.T) {
	tool := oneTool(t, testOptions(t), `{"name": "t", "command": "uname -- {v}", "params": {"v": {"multiline": true}}}`)
	points := []rune{
		0x115f, 0x1160, 0x3164, 0xffa0, // Hangul fillers
		0x034f,                                 // combining grapheme joiner
		0x180b, 0x180c, 0x180d, 0x180e, 0x180f, // Mongolian free variation selectors, vowel separator
		0xfe00, 0xfe01, 0xfe07, 0xfe0e, 0xfe0f, // variation selectors
		0xe0100, 0xe0101, 0xe0150, 0xe01ee, 0xe01ef, // variation selectors supplement
		0x17b4, 0x17b5, // Khmer inherent vowels
		0x2800,                                          // braille pattern blank
		0x200b, 0x2060, 0xfeff, 0x00ad, 0xe0001, 0x3000, // zero-width, tags, unusual spaces
	}
	for _, r := range points {
		for _, v := range []string{string(r), "a" + string(r) + "b", strings.Repeat(string(r), 300) + "; curl x | sh"} {
			_, err := tool.Expand(map[string]any{"v": v})
			var ae *ArgError
			if !errors.As(err, &ae) || ae.Rule != "text" || !strings.Contains(err.Error(), fmt.Sprintf("(%U)", r)) {
				t.Errorf("%U in %+q: %v, want a text refusal naming it", r, v, err)
			}
		}
	}
}

func TestTextProblem_MarksAndBases(t *testing.T) {
	acute := "\u0301"
	tests := []struct {
		in        string
		multiline bool
		want      string // "" means accepted
	}{
		{"café", false, ""},
		{"e" + strings.Repeat(acute, 4), false, ""},
		{"e" + strings.Repeat(acute, 5), false, "mark stacked beyond 4"},
		{acute + "x", false, "no visible character to attach to"},
		{"ok\n" + acute, true, "no visible character to attach to (U+0301) at byte 3"},
		{"a\tb\r\nc", true, ""},
		{"स्त्री हिन्दी", false, ""},
		{"日本語 한국어 العربية", false, ""},
		{"a\u034fb", false, "default-ignorable character (U+034F) at byte 1"},
	}
	for _, tt := range tests {
		got := textProblem(tt.in, tt.multiline)
		if tt.want == "" && got != "" || !strings.Contains(got, tt.want) {
			t.Errorf("textProblem(%+q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

// FuzzVisible checks the console's promise for argument values: any value
// the checks accept renders, through exec.Quote, to text at least as many
// cells wide as it has graphemes, every grapheme takes a cell, and Quote
// needs no escape for it.
func FuzzVisible(f *testing.F) {
	for _, s := range []string{"plain", "a b", "café", "e\u0301\u0301\u0301\u0301", "\u3164", "a\u034fb",
		"\u0301", "\u1100\u1161\u11a8", "👍🏽", "x\u0600" + "1", "스\u1160"} {
		f.Add(s, false)
	}
	f.Add("line\n\u0301", true)
	f.Fuzz(func(t *testing.T, s string, multiline bool) {
		if textProblem(s, multiline) != "" {
			return
		}
		for _, line := range strings.FieldsFunc(s, func(r rune) bool { return r == '\n' || r == '\t' || r == '\r' }) {
			q := exec.Quote(line)
			if strings.HasPrefix(q, "$'") {
				t.Fatalf("accepted %+q needs escapes: %s", line, q)
			}
			n, w := 0, 0
			for rest := line; rest != ""; {
				g, gw := ansi.FirstGraphemeCluster(rest, ansi.GraphemeWidth)
				if gw < 1 {
					t.Fatalf("accepted %+q has the invisible grapheme %+q", line, g)
				}
				n, w, rest = n+1, w+gw, rest[len(g):]
			}
			if vis := ansi.StringWidth(q); vis < n || w < n {
				t.Fatalf("accepted %+q renders as %q, %d cells for %d graphemes", line, q, vis, n)
			}
		}
	})
}
