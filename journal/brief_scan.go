package journal

import (
	"time"
)

// briefScan decodes a line into a briefRecord without reflection, for
// `assent log`, which reads every record of the journal: encoding/json
// spends most of the time a 1 GB journal takes. It takes only what the
// journal's own encoder writes: a flat object whose keys are spelled as the
// encoder spells them. Anything else (a key in other letter case, a
// surrogate escape, invalid UTF-8, a number that is not a plain integer)
// makes it give up, and decodeBrief asks encoding/json, so a line decodes
// the same either way; brief_test.go holds the two to that.
type briefScan struct {
	b []byte
	i int
}

// recordKey returns a key of a record as a constant, or "" for a key no
// Record field is written with. The switch on the bytes builds no string;
// TestRecordKey_KnowsEveryField holds it to Record's tags, since a key
// missing here sends every line that has it to encoding/json.
func recordKey(raw []byte) string {
	switch string(raw) {
	case "seq":
		return "seq"
	case "time":
		return "time"
	case "call":
		return "call"
	case "event":
		return "event"
	case "tool":
		return "tool"
	case "client":
		return "client"
	case "session":
		return "session"
	case "args":
		return "args"
	case "replay_of":
		return "replay_of"
	case "path":
		return "path"
	case "argv":
		return "argv"
	case "cwd":
		return "cwd"
	case "env":
		return "env"
	case "stdin":
		return "stdin"
	case "command_hash":
		return "command_hash"
	case "decision":
		return "decision"
	case "decider":
		return "decider"
	case "rule":
		return "rule"
	case "reason":
		return "reason"
	case "edit":
		return "edit"
	case "ending":
		return "ending"
	case "exit":
		return "exit"
	case "signal":
		return "signal"
	case "duration_ns":
		return "duration_ns"
	case "timed_out":
		return "timed_out"
	case "confinement":
		return "confinement"
	case "error":
		return "error"
	case "stdout":
		return "stdout"
	case "stderr":
		return "stderr"
	case "torn_bytes":
		return "torn_bytes"
	case "segment":
		return "segment"
	case "part":
		return "part"
	case "open":
		return "open"
	case "seal":
		return "seal"
	case "prev":
		return "prev"
	case "hash":
		return "hash"
	}
	return ""
}

// object scans a whole line that is one record, handing each key to
// field, which scans its value; ok is false when encoding/json must decide.
// encoding/json matches keys in any letter case: a key spelled otherwise
// than the encoder spells it is left to it.
func (s *briefScan) object(field func(key string) bool) bool {
	ok := s.members(func(raw []byte) bool {
		key := recordKey(raw)
		return key != "" && field(key)
	})
	s.space()
	return ok && s.i == len(s.b)
}

// record scans a line into a brief record.
func (s *briefScan) record(r *briefRecord) bool {
	return s.object(func(key string) bool { return s.briefField(key, r) })
}

// briefField scans the value of one key into r. null empties a slice or
// pointer and leaves the rest, as encoding/json does.
func (s *briefScan) briefField(key string, r *briefRecord) bool {
	if s.null() {
		switch key {
		case "argv":
			r.Argv = nil
		case "edit":
			r.Edit = nil
		case "exit":
			r.Exit = nil
		}
		return true
	}
	var ok bool
	switch key {
	case "seq":
		r.Seq, ok = s.int()
	case "part":
		var n int64
		n, ok = s.int()
		r.Part = int(n)
	case "duration_ns":
		var n int64
		n, ok = s.int()
		r.Duration = time.Duration(n)
	case "exit":
		var n int64
		if n, ok = s.int(); ok && int64(int(n)) == n {
			code := int(n)
			r.Exit = &code
		}
	case "timed_out":
		r.TimedOut, ok = s.bool()
	case "time":
		s.space()
		start := s.i
		if _, _, ok = s.strBytes(); ok {
			ok = r.Time.UnmarshalJSON(s.b[start:s.i]) == nil
		}
	case "argv":
		r.Argv, ok = s.strs()
	case "edit":
		r.Edit, ok = s.edit()
	default:
		if dst := r.text(key); dst != nil {
			*dst, ok = s.str()
		} else {
			ok = s.skip(0)
		}
	}
	return ok
}

// text returns the string field a key names, nil for none.
func (r *briefRecord) text(key string) *string {
	switch key {
	case "call":
		return &r.Call
	case "tool":
		return &r.Tool
	case "client":
		return &r.Client
	case "session":
		return &r.Session
	case "path":
		return &r.Path
	case "cwd":
		return &r.Cwd
	case "rule":
		return &r.Rule
	case "reason":
		return &r.Reason
	case "signal":
		return &r.Signal
	case "error":
		return &r.Error
	case "segment":
		return &r.Segment
	case "event":
		return (*string)(&r.Event)
	case "decision":
		return (*string)(&r.Decision)
	case "decider":
		return (*string)(&r.Decider)
	case "ending":
		return (*string)(&r.Ending)
	}
	return nil
}
