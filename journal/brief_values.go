package journal

// The compound values briefScan reads or steps over.

// maxSkipDepth bounds the nesting briefScan steps over; deeper, it leaves
// the line to encoding/json, which has its own bound.
const maxSkipDepth = 64

// array scans [v, v, …], calling each to scan one value.
func (s *briefScan) array(each func() bool) bool {
	if !s.lit("[") {
		return false
	}
	if s.lit("]") {
		return true
	}
	for {
		if !each() {
			return false
		}
		if s.lit("]") {
			return true
		}
		if !s.lit(",") {
			return false
		}
	}
}

// members scans {"key": v, …}, calling each with a key, after its colon, to
// scan its value. A key with escapes is left to encoding/json.
func (s *briefScan) members(each func(key []byte) bool) bool {
	if !s.lit("{") {
		return false
	}
	if s.lit("}") {
		return true
	}
	for {
		key, escaped, ok := s.strBytes()
		if !ok || escaped || !s.lit(":") || !each(key) {
			return false
		}
		if s.lit("}") {
			return true
		}
		if !s.lit(",") {
			return false
		}
	}
}

// strs scans an array of strings.
func (s *briefScan) strs() ([]string, bool) {
	out := []string{}
	ok := s.array(func() bool {
		v, ok := s.str()
		out = append(out, v)
		return ok
	})
	return out, ok
}

// edit scans an Edit: {"before": [...], "after": [...]}; any other key is
// left to encoding/json.
func (s *briefScan) edit() (*Edit, bool) {
	e := &Edit{}
	ok := s.members(func(key []byte) bool {
		var dst *[]string
		switch string(key) {
		case "before":
			dst = &e.Before
		case "after":
			dst = &e.After
		default:
			return false
		}
		if s.null() {
			*dst = nil
			return true
		}
		var ok bool
		*dst, ok = s.strs()
		return ok
	})
	return e, ok
}

// skip steps over one value of any kind, checking it as it goes.
func (s *briefScan) skip(depth int) bool {
	if depth > maxSkipDepth {
		return false
	}
	s.space()
	if s.i >= len(s.b) {
		return false
	}
	switch c := s.b[s.i]; {
	case c == '"':
		_, _, ok := s.strBytes()
		return ok
	case c == '{':
		return s.members(func([]byte) bool { return s.skip(depth + 1) })
	case c == '[':
		return s.array(func() bool { return s.skip(depth + 1) })
	case c == 't':
		return s.lit("true")
	case c == 'f':
		return s.lit("false")
	case c == 'n':
		return s.null()
	}
	return s.number()
}

// number steps over a JSON number.
func (s *briefScan) number() bool {
	start := s.i
	if s.i < len(s.b) && s.b[s.i] == '-' {
		s.i++
	}
	digits := s.digits()
	if digits == 0 || (s.b[s.i-digits] == '0' && digits > 1) {
		return false
	}
	if s.i < len(s.b) && s.b[s.i] == '.' {
		s.i++
		if s.digits() == 0 {
			return false
		}
	}
	if s.i < len(s.b) && (s.b[s.i] == 'e' || s.b[s.i] == 'E') {
		s.i++
		if s.i < len(s.b) && (s.b[s.i] == '+' || s.b[s.i] == '-') {
			s.i++
		}
		if s.digits() == 0 {
			return false
		}
	}
	return s.i > start
}

func (s *briefScan) digits() int {
	start := s.i
	for s.i < len(s.b) && s.b[s.i] >= '0' && s.b[s.i] <= '9' {
		s.i++
	}
	return s.i - start
}
