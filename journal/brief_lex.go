package journal

import (
	"strconv"
	"unicode/utf16"
	"unicode/utf8"
)

// The tokens briefScan reads: space, literals, integers and strings.

func (s *briefScan) space() {
	for s.i < len(s.b) && (s.b[s.i] == ' ' || s.b[s.i] == '\t' || s.b[s.i] == '\n' || s.b[s.i] == '\r') {
		s.i++
	}
}

// lit steps over text (after any space) if it comes next.
func (s *briefScan) lit(text string) bool {
	s.space()
	if len(s.b)-s.i < len(text) || string(s.b[s.i:s.i+len(text)]) != text {
		return false
	}
	s.i += len(text)
	return true
}

func (s *briefScan) null() bool { return s.lit("null") }

func (s *briefScan) bool() (bool, bool) {
	if s.lit("true") {
		return true, true
	}
	return false, s.lit("false")
}

// int scans a plain integer: digits with an optional minus sign, no
// fraction, no exponent, no leading zero.
func (s *briefScan) int() (int64, bool) {
	s.space()
	start := s.i
	if s.i < len(s.b) && s.b[s.i] == '-' {
		s.i++
	}
	digits := s.i
	for s.i < len(s.b) && s.b[s.i] >= '0' && s.b[s.i] <= '9' {
		s.i++
	}
	if s.i == digits || (s.b[digits] == '0' && s.i-digits > 1) {
		return 0, false
	}
	if s.i < len(s.b) && (s.b[s.i] == '.' || s.b[s.i] == 'e' || s.b[s.i] == 'E') {
		return 0, false
	}
	n, err := strconv.ParseInt(string(s.b[start:s.i]), 10, 64)
	return n, err == nil
}

// str scans a string and returns its text.
func (s *briefScan) str() (string, bool) {
	raw, escaped, ok := s.strBytes()
	switch {
	case !ok:
		return "", false
	case escaped:
		return unescape(raw)
	}
	return string(raw), utf8.Valid(raw)
}

// strBytes scans a string, checking its escapes, and returns its bytes
// between the quotes as they are, without building anything.
func (s *briefScan) strBytes() (raw []byte, escaped, ok bool) {
	if !s.lit(`"`) {
		return nil, false, false
	}
	start := s.i
	for s.i < len(s.b) {
		switch c := s.b[s.i]; {
		case c == '"':
			s.i++
			return s.b[start : s.i-1], escaped, true
		case c < 0x20:
			return nil, false, false
		case c == '\\':
			escaped = true
			if s.i+1 >= len(s.b) {
				return nil, false, false
			}
			switch s.b[s.i+1] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
				s.i += 2
			case 'u':
				if s.i+6 > len(s.b) || !isHex4(s.b[s.i+2:s.i+6]) {
					return nil, false, false
				}
				s.i += 6
			default:
				return nil, false, false
			}
			continue
		}
		s.i++
	}
	return nil, false, false
}

func isHex4(b []byte) bool {
	for _, c := range b {
		if (c < '0' || c > '9') && (c < 'a' || c > 'f') && (c < 'A' || c > 'F') {
			return false
		}
	}
	return true
}

// unescape builds the text of a string whose escapes strBytes checked. A
// surrogate escape, or invalid UTF-8, is left to encoding/json, which
// replaces what does not decode.
func unescape(raw []byte) (string, bool) {
	out := make([]byte, 0, len(raw))
	for i := 0; i < len(raw); i++ {
		c := raw[i]
		if c != '\\' {
			out = append(out, c)
			continue
		}
		i++
		switch e := raw[i]; e {
		case 'b':
			out = append(out, '\b')
		case 'f':
			out = append(out, '\f')
		case 'n':
			out = append(out, '\n')
		case 'r':
			out = append(out, '\r')
		case 't':
			out = append(out, '\t')
		case 'u':
			n, _ := strconv.ParseUint(string(raw[i+1:i+5]), 16, 16)
			if utf16.IsSurrogate(rune(n)) {
				return "", false
			}
			out = utf8.AppendRune(out, rune(n))
			i += 4
		default: // '"', '\\', '/'
			out = append(out, e)
		}
	}
	return string(out), utf8.Valid(out)
}
