package exec

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Quote renders one argv element for people: bare when it is plain, in
// single quotes when it holds spaces or shell punctuation, and in $'...'
// with every invisible or control character as an escape (\x1b, \u202e)
// when it holds any. The result reads back as the same single word in
// bash, which the console's edit dialog relies on; it is never used to run
// anything.
func Quote(s string) string {
	if s == "" {
		return "''"
	}
	plain, visible := true, true
	for i, r := range s {
		if r == utf8.RuneError {
			if _, n := utf8.DecodeRuneInString(s[i:]); n == 1 {
				visible = false
				break
			}
		}
		if !printable(r) {
			visible = false
			break
		}
		if !(r < utf8.RuneSelf && (unicode.IsLetter(r) || unicode.IsDigit(r) || strings.ContainsRune("_@%+=:,./-", r))) {
			plain = false
		}
	}
	switch {
	case !visible:
		return "$'" + escape(s, true) + "'"
	case plain && !shellSpecial(s):
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// Escape returns s with every character that could change the terminal or
// hide itself (controls, escape sequences, bidi and zero-width characters,
// invalid UTF-8) written as a visible escape. Printable text, including
// non-ASCII letters, is kept.
func Escape(s string) string {
	for _, r := range s {
		if !printable(r) || r == utf8.RuneError {
			return escape(s, false)
		}
	}
	return s
}

// printable reports whether r can be shown as itself.
func printable(r rune) bool {
	return r == ' ' || (unicode.IsPrint(r) && r != utf8.RuneError)
}

func escape(s string, quoted bool) string {
	var b strings.Builder
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && n == 1:
			fmt.Fprintf(&b, `\x%02x`, s[i])
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\t':
			b.WriteString(`\t`)
		case r == '\r':
			b.WriteString(`\r`)
		case quoted && (r == '\\' || r == '\''):
			b.WriteByte('\\')
			b.WriteRune(r)
		case r < 0x80 && !printable(r):
			fmt.Fprintf(&b, `\x%02x`, r)
		case !printable(r) && r > 0xffff:
			fmt.Fprintf(&b, `\U%08x`, r)
		case !printable(r):
			fmt.Fprintf(&b, `\u%04x`, r)
		default:
			b.WriteString(s[i : i+n])
		}
		i += n
	}
	return b.String()
}

// String renders the command for display: each argv element quoted, joined
// by spaces. It is for people only; the command runs from Argv.
func (c Command) String() string {
	q := make([]string, len(c.Argv))
	for i, a := range c.Argv {
		q[i] = Quote(a)
	}
	return strings.Join(q, " ")
}

// shellSpecial reports words made only of plain characters that a shell
// would still read specially at the start of a command: a variable
// assignment (NAME=value) or a reserved word.
func shellSpecial(s string) bool {
	switch s {
	case "if", "then", "else", "elif", "fi", "case", "esac", "for", "select", "while", "until",
		"do", "done", "in", "function", "time", "coproc":
		return true
	}
	name, _, ok := strings.Cut(s, "=")
	if !ok || name == "" || (name[0] >= '0' && name[0] <= '9') {
		return false
	}
	for _, r := range name {
		if !(r == '_' || unicode.IsLetter(r) && r < utf8.RuneSelf || unicode.IsDigit(r) && r < utf8.RuneSelf) {
			return false
		}
	}
	return true
}
