package config

import (
	"fmt"
	"unicode/utf8"

	"github.com/assent-sh/assent/exec"
)

// textProblem returns a description of the first character in s that may not
// appear in an argument value, or "" when s is clean. Values must be valid
// UTF-8 and must show on the console exactly as the program receives them:
// no NUL, C0 or C1 controls, DEL, bidi controls, and nothing exec.Hidden
// finds (zero-width and other default-ignorable characters, variation
// selectors, Hangul fillers, blank symbols, marks stacked beyond
// exec.MaxMarks, a zero-width character with no visible character to
// attach to, unusual spaces, private-use and unassigned code points).
// Refusing by property rather than by list keeps new invisible characters
// out too. multiline admits newline, tab and a CR that starts a CRLF pair;
// each line is then checked on its own, as the console shows it.
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
	// Lines (and the text between tabs) are shown apart, so each must show
	// as it is on its own: a mark right after a newline has nothing to sit on.
	start := 0
	for i := 0; i <= len(s); i++ {
		if i < len(s) && s[i] != '\n' && s[i] != '\t' && s[i] != '\r' {
			continue
		}
		if at, what := exec.Hidden(s[start:i]); at >= 0 {
			r, _ := utf8.DecodeRuneInString(s[start+at:])
			return fmt.Sprintf("%s (%U) at byte %d", what, r, start+at)
		}
		start = i + 1
	}
	return ""
}

// forbiddenRune names the class of r when r may not appear in a value by
// itself. The names are the ones an agent is most likely to need; every
// other invisible character is found by exec.Hidden.
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
	}
	return ""
}
