package jsonenc

import (
	"encoding/json"
	"math"
	"slices"
	"strconv"
)

// maxDepth is how deep Value follows maps and slices inside each other;
// deeper, it refuses, and encoding/json (which tells a cycle from depth)
// writes the value or says why not.
const maxDepth = 1000

// Value appends v as json.Marshal writes it, for the values a decoded or
// hand-built JSON document holds: nil, bool, string, float64, int,
// json.Number, []string, []any and map[string]any (keys in order), nested
// up to maxDepth. It reports false, with b as it was, for any other type,
// for a NaN or an infinity, which json.Marshal refuses, and for deeper
// nesting (a map that holds itself among it); the caller falls back to
// encoding/json.
func Value(b []byte, v any, html bool) ([]byte, bool) {
	start := len(b)
	b, ok := appendValue(b, v, html, 0)
	if !ok {
		return b[:start], false
	}
	return b, true
}

func appendValue(b []byte, v any, html bool, depth int) ([]byte, bool) {
	if depth > maxDepth {
		return b, false
	}
	switch v := v.(type) {
	case nil:
		return append(b, "null"...), true
	case bool:
		return strconv.AppendBool(b, v), true
	case string:
		return String(b, v, html), true
	case int:
		return strconv.AppendInt(b, int64(v), 10), true
	case float64:
		return appendFloat(b, v)
	case json.Number:
		return appendNumber(b, v)
	case []string:
		return Strings(b, v, html), true
	case []any:
		if v == nil {
			return append(b, "null"...), true
		}
		b = append(b, '[')
		for i, e := range v {
			if i > 0 {
				b = append(b, ',')
			}
			var ok bool
			if b, ok = appendValue(b, e, html, depth+1); !ok {
				return b, false
			}
		}
		return append(b, ']'), true
	case map[string]any:
		if v == nil {
			return append(b, "null"...), true
		}
		keys := make([]string, 0, len(v))
		for k := range v {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		b = append(b, '{')
		for i, k := range keys {
			if i > 0 {
				b = append(b, ',')
			}
			b = append(String(b, k, html), ':')
			var ok bool
			if b, ok = appendValue(b, v[k], html, depth+1); !ok {
				return b, false
			}
		}
		return append(b, '}'), true
	}
	return b, false
}

// appendFloat writes f as encoding/json writes a float64: the shortest
// decimal that reads back as f, in exponent form only below 1e-6 or from
// 1e21 up, with an exponent of one digit written without a leading zero.
func appendFloat(b []byte, f float64) ([]byte, bool) {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return b, false
	}
	format := byte('f')
	if abs := math.Abs(f); abs != 0 && (abs < 1e-6 || abs >= 1e21) {
		format = 'e'
	}
	b = strconv.AppendFloat(b, f, format, -1, 64)
	if format == 'e' {
		if n := len(b); n >= 4 && b[n-4] == 'e' && b[n-3] == '-' && b[n-2] == '0' {
			b[n-2] = b[n-1]
			b = b[:n-1]
		}
	}
	return b, true
}

// appendNumber writes n's text, as encoding/json does: "0" for an empty
// one, and refused unless it is a JSON number.
func appendNumber(b []byte, n json.Number) ([]byte, bool) {
	s := string(n)
	if s == "" {
		s = "0"
	}
	if first, last := s[0], s[len(s)-1]; first != '-' && (first < '0' || first > '9') || last < '0' || last > '9' ||
		!json.Valid([]byte(s)) {
		return b, false
	}
	return append(b, s...), true
}
