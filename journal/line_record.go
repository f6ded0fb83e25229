package journal

import (
	"encoding/base64"
	"strconv"
	"time"

	"github.com/assent-sh/assent/jsonenc"
)

// appendRecord writes r into e.buf as encoding/json writes it with HTML
// escaping off (see newLineEncoder): the same keys in the same order,
// omitempty kept, the same escapes. Only a call's arguments, whose shape
// is open, go through the encoder; reflecting over the whole record was
// half of what an append cost. TestAppendRecord_AsEncodingJSON and
// FuzzAppendRecord hold the two to the same bytes.
func (e *lineEncoder) appendRecord(r *Record) error {
	b := e.buf.AvailableBuffer()
	b = append(b, `{"seq":`...)
	b = strconv.AppendInt(b, r.Seq, 10)
	b = append(b, `,"time":`...)
	if y := r.Time.Year(); y < 0 || y > 9999 {
		_, err := r.Time.MarshalJSON() // the error encoding/json gives
		return err
	}
	b = append(b, '"')
	b = r.Time.AppendFormat(b, time.RFC3339Nano)
	b = append(b, '"')
	b = appendText(b, "call", r.Call)
	b = append(b, `,"event":`...)
	b = appendJSONString(b, string(r.Event))
	b = appendText(b, "tool", r.Tool)
	b = appendText(b, "client", r.Client)
	b = appendText(b, "session", r.Session)
	if len(r.Args) > 0 {
		b = append(b, `,"args":`...)
		e.buf.Write(b)
		if err := e.enc.Encode(r.Args); err != nil {
			return err
		}
		e.buf.Truncate(e.buf.Len() - 1) // the Encoder's newline
		b = e.buf.AvailableBuffer()
	}
	b = appendText(b, "replay_of", r.ReplayOf)
	b = appendText(b, "path", r.Path)
	b = appendList(b, "argv", r.Argv)
	b = appendText(b, "cwd", r.Cwd)
	b = appendList(b, "env", r.Env)
	b = appendBlob(b, "stdin", r.Stdin)
	b = appendText(b, "command_hash", r.CommandHash)
	b = appendText(b, "decision", string(r.Decision))
	b = appendText(b, "decider", string(r.Decider))
	b = appendText(b, "rule", r.Rule)
	b = appendText(b, "reason", r.Reason)
	if r.Edit != nil {
		b = jsonenc.Strings(append(b, `,"edit":{"before":`...), r.Edit.Before, false)
		b = jsonenc.Strings(append(b, `,"after":`...), r.Edit.After, false)
		b = append(b, '}')
	}
	b = appendText(b, "ending", string(r.Ending))
	if r.Exit != nil {
		b = append(b, `,"exit":`...)
		b = strconv.AppendInt(b, int64(*r.Exit), 10)
	}
	b = appendText(b, "signal", r.Signal)
	b = appendInt(b, "duration_ns", int64(r.Duration))
	if r.TimedOut {
		b = append(b, `,"timed_out":true`...)
	}
	b = appendText(b, "confinement", r.Confinement)
	b = appendText(b, "error", r.Error)
	b = appendBlob(b, "stdout", r.Stdout)
	b = appendBlob(b, "stderr", r.Stderr)
	b = appendInt(b, "torn_bytes", r.TornBytes)
	b = appendText(b, "segment", r.Segment)
	b = appendInt(b, "part", int64(r.Part))
	if len(r.Open) > 0 {
		b = append(b, `,"open":[`...)
		for i, o := range r.Open {
			if i > 0 {
				b = append(b, ',')
			}
			b = append(b, `{"call":`...)
			b = appendJSONString(b, o.Call)
			b = append(b, `,"state":`...)
			b = appendJSONString(b, string(o.State))
			b = append(b, '}')
		}
		b = append(b, ']')
	}
	b = appendText(b, "seal", r.Seal)
	b = appendText(b, "prev", r.Prev)
	b = appendText(b, "hash", r.Hash)
	b = append(b, "}\n"...)
	e.buf.Write(b)
	return nil
}

// appendText writes `,"key":"value"`, or nothing for an empty value.
func appendText(b []byte, key, value string) []byte {
	if value == "" {
		return b
	}
	b = appendKey(b, key)
	return appendJSONString(b, value)
}

// appendInt writes `,"key":n`, or nothing for zero.
func appendInt(b []byte, key string, n int64) []byte {
	if n == 0 {
		return b
	}
	return strconv.AppendInt(appendKey(b, key), n, 10)
}

// appendList writes `,"key":[...]`, or nothing for an empty list.
func appendList(b []byte, key string, list []string) []byte {
	if len(list) == 0 {
		return b
	}
	return jsonenc.Strings(appendKey(b, key), list, false)
}

// appendBlob writes `,"key":{...}`, or nothing for a nil blob.
func appendBlob(b []byte, key string, blob *Blob) []byte {
	if blob == nil {
		return b
	}
	b = append(appendKey(b, key), '{')
	start := len(b)
	b = appendText(b, "text", blob.Text)
	if len(blob.Base64) > 0 {
		b = append(appendKey(b, "base64"), '"')
		b = base64.StdEncoding.AppendEncode(b, blob.Base64)
		b = append(b, '"')
	}
	b = strconv.AppendInt(appendKey(b, "bytes"), blob.Bytes, 10)
	b = appendText(b, "sha256", blob.SHA256)
	if blob.Truncated {
		b = append(b, `,"truncated":true`...)
	}
	if b[start] == ',' { // the first member has no comma before it
		b = append(b[:start], b[start+1:]...)
	}
	return append(b, '}')
}

func appendKey(b []byte, key string) []byte {
	b = append(b, ',', '"')
	b = append(b, key...)
	return append(b, '"', ':')
}

// appendJSONString writes s as the journal's encoding/json encoder does,
// with HTML escaping off.
func appendJSONString(b []byte, s string) []byte { return jsonenc.String(b, s, false) }
