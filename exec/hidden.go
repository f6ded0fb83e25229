package exec

import (
	"fmt"
	"unicode"
	"unicode/utf8"

	"github.com/clipperhouse/displaywidth"
)

// MaxMarks is how many combining marks (or other zero-width characters) one
// visible character may carry. Past it, marks pile up over neighbouring
// lines or text ("zalgo") and hide what is under them, so the rest are
// shown as escapes and refused in argument values.
const MaxMarks = 4

// Hidden finds the first character of s that a terminal would not show as
// itself, and says what it is: a control character, invalid UTF-8, an
// invisible format or other default-ignorable character (zero-width
// spaces, variation selectors, Hangul fillers, the combining grapheme
// joiner, Khmer inherent vowels), a blank symbol (braille blank), a mark
// stacked beyond MaxMarks on one character, a character with no width
// outside a grapheme that has a visible base, or another character Go does
// not consider printable. It returns -1 and "" when all of s shows as it is.
// Quote and Escape escape exactly these characters.
func Hidden(s string) (at int, what string) {
	at = -1
	off := 0
	walk(s, func(piece, why string) bool {
		if why != "" {
			at, what = off, why
			return false
		}
		off += len(piece)
		return true
	})
	return at, what
}

// walk calls f with consecutive pieces of s, each either shown as it is
// (what is "") or to be escaped (what says why), until f returns false. It
// works grapheme by grapheme: within a grapheme, everything from the first
// hidden character on is hidden, so no escape is ever decorated by a mark
// that belonged to something else.
func walk(s string, f func(piece, what string) bool) {
	if plainRunes(s) {
		f(s, "")
		return
	}
	shown := 0 // start of the shown text not yet passed to f
	pos := 0
	it := displaywidth.Options{}.StringGraphemes(s)
	for it.Next() {
		g := it.Value()
		cut, what := hiddenFrom(g, it.Width())
		if what != "" {
			if pos+cut > shown && !f(s[shown:pos+cut], "") {
				return
			}
			if !f(g[cut:], what) {
				return
			}
			shown = pos + len(g)
		}
		pos += len(g)
	}
	if shown < len(s) {
		f(s[shown:], "")
	}
}

// plainRunes reports whether every character of s shows as itself on its
// own: printable, with a width, and not a mark. Such text has no hidden
// grapheme, so most text (ASCII, precomposed letters, CJK) needs no
// segmentation at all.
func plainRunes(s string) bool {
	for i := 0; i < len(s); {
		if c := s[i]; c < utf8.RuneSelf {
			if c < 0x20 || c == 0x7f {
				return false
			}
			i++
			continue
		}
		r, n := utf8.DecodeRuneInString(s[i:])
		if !plainRune(r) {
			return false
		}
		i += n
	}
	return true
}

// plainRune reports whether r shows as itself wherever it stands. Latin
// letters, CJK ideographs and Hangul syllables are answered without a
// table lookup, since nearly all text is made of them.
func plainRune(r rune) bool {
	switch {
	case r >= 0xa1 && r < 0x300 && r != 0xad: // Latin-1, Latin Extended, IPA, modifiers; not the soft hyphen
		return true
	case r >= 0x4e00 && r <= 0x9fff, r >= 0xac00 && r <= 0xd7a3:
		return true
	}
	return r != utf8.RuneError && hiddenRune(r) == "" && !unicode.Is(unicode.M, r) && runeWidth(r) > 0
}

// hiddenFrom returns the byte offset in the grapheme g (whose display width
// is width) where its hidden part starts and why, or len(g) and "".
func hiddenFrom(g string, width int) (int, string) {
	cut, what := len(g), ""
	marks := 0
	for i, r := range g {
		if r == utf8.RuneError {
			if _, n := utf8.DecodeRuneInString(g[i:]); n == 1 {
				cut, what = i, "invalid UTF-8"
				break
			}
		}
		if why := hiddenRune(r); why != "" {
			cut, what = i, why
			break
		}
		if i > 0 && (unicode.Is(unicode.M, r) || runeWidth(r) == 0) {
			if marks++; marks > MaxMarks {
				cut, what = i, fmt.Sprintf("mark stacked beyond %d on one character", MaxMarks)
				break
			}
		} else {
			marks = 0
		}
	}
	if width == 0 {
		if what == "" {
			what = "zero-width character with no visible character to attach to"
		}
		return 0, what
	}
	return cut, what
}

// runeWidth is the cells r takes by itself, as the console measures it.
func runeWidth(r rune) int { return displaywidth.Options{}.Rune(r) }

// hiddenRune names the class of r when r never shows as itself, wherever it
// stands, by its Unicode properties.
func hiddenRune(r rune) string {
	switch {
	case r < 0x20 || r == 0x7f || (r >= 0x80 && r <= 0x9f):
		return "control character"
	case unicode.Is(unicode.Variation_Selector, r):
		return "variation selector"
	case unicode.Is(unicode.Cf, r):
		return "invisible format character"
	case unicode.Is(unicode.Other_Default_Ignorable_Code_Point, r):
		return "default-ignorable character"
	case r == 0x2800 || r == 0x1d159:
		// Braille pattern blank and the musical null notehead: symbols
		// whose glyph is defined to be empty.
		return "blank character"
	case r != ' ' && !unicode.IsPrint(r):
		// Unusual spaces, line separators, private-use and unassigned
		// code points.
		return "non-printing character"
	}
	return ""
}
