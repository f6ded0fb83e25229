package exec

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// Quote renders one argv element for people: bare when it is plain, in
// single quotes when it holds spaces or shell punctuation, and in $'...'
// with every character that would not show as itself (see Hidden) as an
// escape (\x1b, \u202e) when it holds any. The result reads back as the
// same single word in bash, which the console's edit dialog relies on; it
// is never used to run anything.
func Quote(s string) string {
	if s == "" {
		return "''"
	}
	if e, ok := escaped(s, true); ok {
		return e
	}
	plain := true
	for _, r := range s {
		if !(r < utf8.RuneSelf && (unicode.IsLetter(r) || unicode.IsDigit(r) || strings.ContainsRune("_@%+=:,./-", r))) {
			plain = false
			break
		}
	}
	if plain && !shellSpecial(s) {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// Escape returns s with every character that would not show as itself (see
// Hidden) written as a visible escape. Everything else, including non-ASCII
// letters and marks on a visible character, is kept. Everything assent puts
// on a terminal that it did not write itself passes through Escape or Quote.
func Escape(s string) string {
	if e, ok := escaped(s, false); ok {
		return e
	}
	return s
}

// escaped returns s with its hidden pieces written as escapes, inside
// $'...' when quoted, and false when s hides nothing.
func escaped(s string, quoted bool) (string, bool) {
	if at, _ := Hidden(s); at < 0 {
		return "", false
	}
	var b strings.Builder
	if quoted {
		b.WriteString("$'")
	}
	walk(s, func(piece, what string) bool {
		writeEscaped(&b, piece, what != "", quoted)
		return true
	})
	if quoted {
		b.WriteByte('\'')
	}
	return b.String(), true
}

// writeEscaped writes piece to b: as it is when it is shown, with every
// character but printable ASCII as an escape when it is hidden. quoted
// also escapes backslash and single quote, for the inside of $'...'.
func writeEscaped(b *strings.Builder, piece string, hidden, quoted bool) {
	for i := 0; i < len(piece); {
		r, n := utf8.DecodeRuneInString(piece[i:])
		switch {
		case quoted && (r == '\\' || r == '\''):
			b.WriteByte('\\')
			b.WriteRune(r)
		case !hidden || (r >= 0x20 && r < 0x7f):
			b.WriteString(piece[i : i+n])
		case r == utf8.RuneError && n == 1:
			writeHex(b, `\x`, uint32(piece[i]), 2)
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\t':
			b.WriteString(`\t`)
		case r == '\r':
			b.WriteString(`\r`)
		case r < 0x80:
			writeHex(b, `\x`, uint32(r), 2)
		case r > 0xffff:
			writeHex(b, `\U`, uint32(r), 8)
		default:
			writeHex(b, `\u`, uint32(r), 4)
		}
		i += n
	}
}

// writeHex writes prefix and v in exactly digits lowercase hex digits, so
// a following hex digit is never read as part of the escape.
func writeHex(b *strings.Builder, prefix string, v uint32, digits int) {
	const hex = "0123456789abcdef"
	b.WriteString(prefix)
	for i := digits - 1; i >= 0; i-- {
		b.WriteByte(hex[v>>(4*i)&0xf])
	}
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
// assignment (NAME=value, or NAME+=value, which appends) or a reserved
// word.
func shellSpecial(s string) bool {
	switch s {
	case "if", "then", "else", "elif", "fi", "case", "esac", "for", "select", "while", "until",
		"do", "done", "in", "function", "time", "coproc":
		return true
	}
	name, _, ok := strings.Cut(s, "=")
	name = strings.TrimSuffix(name, "+")
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
