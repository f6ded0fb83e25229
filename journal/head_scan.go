package journal

import "encoding/json"

// decodeHead decodes the part of a line the chain, seals and recovery look
// at: by briefScan when the line is as the encoder writes them, else by
// encoding/json (which also says what is wrong with a line that is not a
// record). Verify and recovery read every line this way.
func decodeHead(line []byte, h *head) error {
	s := briefScan{b: line}
	if s.object(func(key string) bool { return s.headField(key, h) }) {
		return nil
	}
	*h = head{}
	return json.Unmarshal(line, h)
}

// headField scans the value of one key into h.
func (s *briefScan) headField(key string, h *head) bool {
	if s.null() {
		if key == "open" {
			h.Open = nil
		}
		return true
	}
	var ok bool
	switch key {
	case "seq":
		h.Seq, ok = s.int()
	case "part":
		var n int64
		n, ok = s.int()
		h.Part = int(n)
	case "open":
		h.Open, ok = s.openCalls()
	default:
		if dst := h.text(key); dst != nil {
			*dst, ok = s.str()
		} else {
			ok = s.skip(0)
		}
	}
	return ok
}

// text returns the string field of a head a key names, nil for none.
func (h *head) text(key string) *string {
	switch key {
	case "call":
		return &h.Call
	case "event":
		return (*string)(&h.Event)
	case "decision":
		return (*string)(&h.Decision)
	case "ending":
		return (*string)(&h.Ending)
	case "segment":
		return &h.Segment
	case "seal":
		return &h.Seal
	case "prev":
		return &h.Prev
	case "hash":
		return &h.Hash
	}
	return nil
}

// openCalls scans a seal's list of open calls: [{"call": …, "state": …}].
func (s *briefScan) openCalls() ([]OpenCall, bool) {
	out := []OpenCall{}
	ok := s.array(func() bool {
		var c OpenCall
		ok := s.members(func(key []byte) bool {
			var dst *string
			switch string(key) {
			case "call":
				dst = &c.Call
			case "state":
				dst = (*string)(&c.State)
			default:
				return false
			}
			if s.null() {
				return true
			}
			var ok bool
			*dst, ok = s.str()
			return ok
		})
		out = append(out, c)
		return ok
	})
	return out, ok
}
