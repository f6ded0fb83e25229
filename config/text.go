package config

import (
	"fmt"
	"unicode"
	"unicode/utf8"
)

// textProblem returns a description of the first character in s that may not
// appear in an argument value, or "" when s is clean. Values must be valid
// UTF-8 without NUL, C0 or C1 controls, DEL, bidi controls, zero-width and
// other format characters (Unicode category Cf), line/paragraph separators
// or any other character Go does not consider printable (unusual spaces,
// private-use and unassigned code points): these are the characters that let
// a value look different on the console than what the program receives. multiline admits newline, tab and a CR
// that starts a CRLF pair.
func textProblem(s string, multiline bool) string {
	for i, r := range s {
		if r == utf8.RuneError {
			if _, size := utf8.DecodeRuneInString(s[i:]); size == 1 {
				return fmt.Sprintf("invalid UTF-8 at byte %d", i)
			}
		}
		if multiline && (r == '\n' || r == '\t' || (r == '\r' && i+1 < len(s) && s[i+1] == '\n')) {
			continue
		}
		if name := forbiddenRune(r); name != "" {
			return fmt.Sprintf("%s (%U) at byte %d", name, r, i)
		}
	}
	return ""
}

// forbiddenRune names the class of r when r may not appear in a value.
func forbiddenRune(r rune) string {
	switch {
	case r == 0:
		return "NUL"
	case r == '\n':
		return "newline"
	case r == '\r':
		return "carriage return"
	case r == '\t':
		return "tab"
	case r == 0x1b:
		return "escape character"
	case r < 0x20 || r == 0x7f:
		return "control character"
	case r >= 0x80 && r <= 0x9f:
		return "C1 control character"
	case (r >= 0x202a && r <= 0x202e) || (r >= 0x2066 && r <= 0x2069) || r == 0x200e || r == 0x200f || r == 0x061c:
		return "bidirectional control"
	case r == 0x200b || r == 0x200c || r == 0x200d || r == 0x2060 || r == 0xfeff:
		return "zero-width character"
	case r == 0x2028 || r == 0x2029:
		return "line separator"
	case unicode.Is(unicode.Cf, r):
		return "invisible format character"
	case r != ' ' && !unicode.IsPrint(r):
		// Unusual spaces, private-use and unassigned code points: the
		// console would have to show them as escapes, so the value would
		// not read as what the program receives.
		return "non-printing character"
	}
	return ""
}
