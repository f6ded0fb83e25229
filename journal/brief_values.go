package journal

// The compound values briefScan reads or steps over.

// maxSkipDepth bounds the nesting briefScan steps over; deeper, it leaves
// the line to encoding/json, which has its own bound.
const maxSkipDepth = 64

// strs scans an array of strings.
func (s *briefScan) strs() ([]string, bool) {
	if !s.lit("[") {
		return nil, false
	}
	out := []string{}
	if s.lit("]") {
		return out, true
	}
	for {
		v, ok := s.str()
		if !ok {
			return nil, false
		}
		out = append(out, v)
		if s.lit("]") {
			return out, true
		}
		if !s.lit(",") {
			return nil, false
		}
	}
}

// edit scans an Edit: {"before": [...], "after": [...]}.
func (s *briefScan) edit() (*Edit, bool) {
	if !s.lit("{") {
		return nil, false
	}
	e := &Edit{}
	if s.lit("}") {
		return e, true
	}
	for {
		raw, escaped, ok := s.strBytes()
		if !ok || escaped || !s.lit(":") {
			return nil, false
		}
		switch key := string(raw); {
		case key != "before" && key != "after":
			ok = false
		case s.null():
			if key == "before" {
				e.Before = nil
			} else {
				e.After = nil
			}
		case key == "before":
			e.Before, ok = s.strs()
		case key == "after":
			e.After, ok = s.strs()
		default:
			ok = false // any other key: encoding/json decides
		}
		if !ok {
			return nil, false
		}
		if s.lit("}") {
			return e, true
		}
		if !s.lit(",") {
			return nil, false
		}
	}
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
		return s.skipList('{', '}', depth, true)
	case c == '[':
		return s.skipList('[', ']', depth, false)
	case c == 't':
		return s.lit("true")
	case c == 'f':
		return s.lit("false")
	case c == 'n':
		return s.null()
	}
	return s.number()
}

// skipList steps over an object (keyed) or an array.
func (s *briefScan) skipList(open, close byte, depth int, keyed bool) bool {
	s.i++
	if s.lit(string(close)) {
		return true
	}
	for {
		if keyed {
			if _, _, ok := s.strBytes(); !ok || !s.lit(":") {
				return false
			}
		}
		if !s.skip(depth + 1) {
			return false
		}
		if s.lit(string(close)) {
			return true
		}
		if !s.lit(",") {
			return false
		}
	}
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
