// Package jsonenc appends JSON values byte for byte as encoding/json
// writes them, for the few hot paths that write JSON by hand: journal
// records, the answers to tools/call and tools/list, and the tools' input
// schemas a start builds. Each caller holds its output to encoding/json's
// with a test.
package jsonenc

import "unicode/utf8"

// String appends s as a JSON string, as encoding/json writes it: '"', '\\'
// and the ASCII controls escaped (\b \f \n \r \t by name, the rest as
// \u00XX), an invalid byte as \ufffd, U+2028 and U+2029 as escapes, and,
// when html is set (json.Marshal's default), '<', '>' and '&' as \u003c,
// \u003e and \u0026.
func String(b []byte, s string, html bool) []byte {
	const hex = "0123456789abcdef"
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if c >= 0x20 && c != '"' && c != '\\' && (!html || c != '<' && c != '>' && c != '&') {
				i++
				continue
			}
			b = append(b, s[start:i]...)
			switch c {
			case '"', '\\':
				b = append(b, '\\', c)
			case '\b':
				b = append(b, '\\', 'b')
			case '\f':
				b = append(b, '\\', 'f')
			case '\n':
				b = append(b, '\\', 'n')
			case '\r':
				b = append(b, '\\', 'r')
			case '\t':
				b = append(b, '\\', 't')
			default:
				b = append(b, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xF])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			b = append(b, s[start:i]...)
			b = append(b, `\ufffd`...)
		case r == '\u2028' || r == '\u2029':
			b = append(b, s[start:i]...)
			b = append(b, '\\', 'u', '2', '0', '2', hex[r&0xF])
		default:
			i += size
			continue
		}
		i += size
		start = i
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}

// Strings appends list as a JSON array of strings, as encoding/json writes
// a []string: null for a nil slice.
func Strings(b []byte, list []string, html bool) []byte {
	if list == nil {
		return append(b, "null"...)
	}
	b = append(b, '[')
	for i, s := range list {
		if i > 0 {
			b = append(b, ',')
		}
		b = String(b, s, html)
	}
	return append(b, ']')
}
