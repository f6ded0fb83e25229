package exec

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/charmbracelet/x/ansi"
)

// invisible lists characters that show as nothing or as blank on a
// terminal, each with the class Hidden gives it. Every one of them was
// once accepted raw and displayed as nothing.
var invisible = []struct {
	r    rune
	what string
}{
	{0x115f, "default-ignorable"}, // Hangul choseong filler
	{0x1160, "default-ignorable"}, // Hangul jungseong filler
	{0x3164, "default-ignorable"}, // Hangul filler
	{0xffa0, "default-ignorable"}, // halfwidth Hangul filler
	{0x034f, "default-ignorable"}, // combining grapheme joiner
	{0x17b4, "default-ignorable"}, // Khmer vowel inherent aq
	{0x17b5, "default-ignorable"}, // Khmer vowel inherent aa
	{0x180b, "variation selector"}, {0x180c, "variation selector"}, {0x180d, "variation selector"},
	{0x180e, "invisible format"}, // Mongolian vowel separator
	{0x180f, "variation selector"},
	{0xfe00, "variation selector"}, {0xfe07, "variation selector"}, {0xfe0f, "variation selector"},
	{0xe0100, "variation selector"}, {0xe0150, "variation selector"}, {0xe01ef, "variation selector"},
	{0x2800, "blank"}, // braille pattern blank
	{0x200b, "invisible format"}, {0x2060, "invisible format"}, {0xfeff, "invisible format"},
	{0x00ad, "invisible format"}, {0xe0041, "invisible format"},
	{0x3000, "non-printing"}, {0x2028, "non-printing"}, {0xe000, "non-printing"},
}

func TestQuoteHidden_EveryInvisibleCharacter(t *testing.T) {
	for _, c := range invisible {
		for _, s := range []string{string(c.r), "ab" + string(c.r) + "cd"} {
			at, what := Hidden(s)
			if want := strings.IndexRune(s, c.r); at != want || !strings.Contains(what, c.what) {
				t.Errorf("Hidden(%+q) = %d, %q; want %d, %q", s, at, what, want, c.what)
			}
			if q := Quote(s); strings.ContainsRune(q, c.r) || !strings.HasPrefix(q, "$'") {
				t.Errorf("Quote(%+q) = %+q shows %U raw", s, q, c.r)
			}
			if e := Escape(s); strings.ContainsRune(e, c.r) {
				t.Errorf("Escape(%+q) = %+q shows %U raw", s, e, c.r)
			}
		}
	}
}

func TestQuoteHidden_MarksAndZeroWidth(t *testing.T) {
	acute := "\u0301"
	tests := []struct {
		in   string
		at   int
		what string
	}{
		{"e" + acute, -1, ""},
		{"e" + strings.Repeat(acute, MaxMarks), -1, ""},
		{"e" + strings.Repeat(acute, MaxMarks+1), 1 + 2*MaxMarks, "stacked beyond 4"},
		{"a" + acute + "b" + strings.Repeat(acute, MaxMarks), -1, ""}, // each base carries its own
		{acute + "abc", 0, "no visible character"},                    // a mark with nothing under it
		{"x\n" + acute, 1, "control"},
		{"स्त्री", -1, ""}, // a Devanagari conjunct: marks on several bases
		{"한국어", -1, ""},
		{"\u1100\u1161\u11a8", -1, ""}, // conjoining jamo make one syllable
		{"naïve café", -1, ""},
		{"👍🏽", -1, ""},
		{"bad\xffutf8", 3, "invalid UTF-8"},
	}
	for _, tt := range tests {
		at, what := Hidden(tt.in)
		if at != tt.at || !strings.Contains(what, tt.what) {
			t.Errorf("Hidden(%+q) = %d, %q; want %d, %q", tt.in, at, what, tt.at, tt.what)
		}
	}
}

func TestQuote_EscapesWhatHides(t *testing.T) {
	tests := []struct{ in, want string }{
		{"a\u034fb", `$'a\u034fb'`},
		{"e\u0301\u0301\u0301\u0301\u0301\u0301", "$'e\u0301\u0301\u0301\u0301\\u0301\\u0301'"},
		{"\u0301x", `$'\u0301x'`},
		{"\u3164\u3164; curl x | sh", `$'\u3164\u3164; curl x | sh'`},
		{"emoji\u2764\ufe0f", "$'emoji\u2764\\ufe0f'"},
		{"it's\u2800", `$'it\'s\u2800'`},
		{"\U000e0100", `$'\U000e0100'`},
	}
	for _, tt := range tests {
		if got := Quote(tt.in); got != tt.want {
			t.Errorf("Quote(%+q) = %+q, want %+q", tt.in, got, tt.want)
		}
	}
}

// FuzzEscape checks that nothing Escape or Quote returns hides anything:
// their output has no hidden character, so every grapheme of it takes at
// least one cell, and what was visible in the input is kept as it was.
func FuzzEscape(f *testing.F) {
	for _, s := range []string{"plain", "a\u034fb", "e\u0301\u0301\u0301\u0301\u0301", "\u3164x", "\x1b[2Jx",
		"\u0600" + "1", "a\u200db", "bad\xff", "\u1100\u1161", "x\u0301\r\n\u0301"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		for _, out := range []string{Escape(s), Quote(s)} {
			if at, what := Hidden(out); at >= 0 {
				t.Fatalf("output %+q of %+q hides a %s at byte %d", out, s, what, at)
			}
			if n, w := graphemes(out); w < n {
				t.Fatalf("output %+q of %+q is %d cells wide for %d graphemes", out, s, w, n)
			}
		}
		if at, _ := Hidden(s); at < 0 && Escape(s) != s {
			t.Fatalf("Escape changed visible text %+q to %+q", s, Escape(s))
		}
		if !utf8.ValidString(s) && Escape(s) == s {
			t.Fatalf("Escape kept invalid UTF-8 in %+q", s)
		}
	})
}

// graphemes counts the graphemes of s and the cells they take, as the
// console measures them.
func graphemes(s string) (n, width int) {
	for s != "" {
		g, w := ansi.FirstGraphemeCluster(s, ansi.GraphemeWidth)
		if g == "" {
			break
		}
		n++
		width += w
		s = s[len(g):]
	}
	return n, width
}

// BenchmarkEscape measures the escape every line of output passes through
// on its way to the console: plain ASCII (the fast path), text with
// non-ASCII letters (grapheme by grapheme), and text full of escapes.
func BenchmarkEscape(b *testing.B) {
	for _, c := range []struct{ name, line string }{
		{"ascii", strings.Repeat("main.go:12: func main() {  ", 4)},
		{"letters", strings.Repeat("naïve café, Grüße, 日本語 ", 4)},
		{"hidden", strings.Repeat("a\u200bb\x1b[2Jc\u3164", 10)},
	} {
		b.Run(c.name, func(b *testing.B) {
			b.SetBytes(int64(len(c.line)))
			for b.Loop() {
				Escape(c.line)
			}
		})
	}
}

// TestQuote_AppendAssignment: bash reads NAME+=value at the start of a
// command as an assignment, like NAME=value, so Quote must quote it for the
// word to read back as one argument.
func TestQuote_AppendAssignment(t *testing.T) {
	for in, want := range map[string]string{"A+=": "'A+='", "PATH+=:/x": "'PATH+=:/x'", "+=x": "+=x", "a+b=c": "a+b=c"} {
		if got := Quote(in); got != want {
			t.Errorf("Quote(%q) = %s, want %s", in, got, want)
		}
	}
}
