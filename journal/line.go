package journal

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"unicode"
	"unicode/utf16"
	"unicode/utf8"
)

// The canonical bytes of a record are its line itself, less the hash field.
//
// A writer encodes the record with an empty Hash (so the field is absent),
// takes body = those bytes, hash = hex(SHA-256(body)), and writes
//
//	body without its closing "}"  +  `,"hash":"` + hash + `"}`  +  "\n"
//
// A reader reverses this on the bytes alone: the line must end with the hash
// field exactly as above, and body is the line with that field cut out and
// the "}" put back. Nothing is re-encoded, so verification does not depend on
// how any JSON library orders keys, escapes text or formats numbers: the
// bytes hashed are the bytes on disk. The chain comes from Prev being inside
// body: each hash covers the hash of the record before.
const (
	hashField = `,"hash":"`
	hashLen   = 2 * sha256.Size
	// suffixLen is the length of the hash field and the closing brace.
	suffixLen = len(hashField) + hashLen + len(`"}`)
)

// lineEncoder turns records into lines, reusing one buffer. It is not safe
// for concurrent use; the Journal calls it under its lock.
type lineEncoder struct {
	buf bytes.Buffer
	enc *json.Encoder
}

func newLineEncoder() *lineEncoder {
	e := &lineEncoder{}
	e.enc = json.NewEncoder(&e.buf)
	// "<", ">" and "&" in argv and output stay readable with grep.
	e.enc.SetEscapeHTML(false)
	return e
}

// encode builds r's line (with r.Hash ignored) and returns its hash. The
// line, newline included, is in e.line() until the next call.
func (e *lineEncoder) encode(r *Record) (string, error) {
	r.Hash = ""
	e.buf.Reset()
	if err := e.appendRecord(r); err != nil {
		return "", err
	}
	body := e.buf.Bytes()
	body = body[:len(body)-1] // the newline
	if escaped, changed := escapeInvisible(body); changed {
		e.buf.Reset()
		e.buf.Write(escaped)
		e.buf.WriteByte('\n')
		body = escaped
	}
	sum := sha256.Sum256(body)
	hash := hex.EncodeToString(sum[:])
	e.buf.Truncate(len(body) - 1) // the closing brace
	e.buf.WriteString(hashField)
	e.buf.WriteString(hash)
	e.buf.WriteString("\"}\n")
	return hash, nil
}

func (e *lineEncoder) line() []byte { return e.buf.Bytes() }

// lineHashes returns the hash a line (without its newline) states in its
// trailing hash field and the hash of its canonical bytes. ok is false when
// the line does not end with a well-formed hash field.
func lineHashes(line []byte) (stated, actual string, ok bool) {
	if len(line) < 1+suffixLen {
		return "", "", false
	}
	cut := len(line) - suffixLen
	tail := line[cut:]
	if !bytes.HasPrefix(tail, []byte(hashField)) || !bytes.HasSuffix(tail, []byte(`"}`)) {
		return "", "", false
	}
	stated = string(tail[len(hashField) : len(hashField)+hashLen])
	if !isLowerHex(stated) {
		return "", "", false
	}
	h := sha256.New()
	h.Write(line[:cut])
	h.Write([]byte("}"))
	return stated, hex.EncodeToString(h.Sum(nil)), true
}

// escapeInvisible rewrites, as \uXXXX escapes, every non-ASCII character in
// an encoded record that does not print: bidi controls, zero-width and other
// format characters, non-ASCII spaces. encoding/json escapes ASCII controls
// but writes these raw, and a journal is read with cat and less as well as
// with `assent log`: what it holds must not rearrange or hide itself on a
// terminal. Such characters can only be inside JSON strings, where the
// escape means the same thing, so the record reads back unchanged.
func escapeInvisible(b []byte) ([]byte, bool) {
	i := 0
	for i < len(b) && b[i] < utf8.RuneSelf {
		i++
	}
	if i == len(b) {
		return b, false
	}
	var out []byte
	for i < len(b) {
		r, n := utf8.DecodeRune(b[i:])
		if r < utf8.RuneSelf || unicode.IsPrint(r) {
			if out != nil {
				out = append(out, b[i:i+n]...)
			}
		} else {
			if out == nil {
				out = append(make([]byte, 0, len(b)+16), b[:i]...)
			}
			for _, u := range utf16.Encode([]rune{r}) {
				out = fmt.Appendf(out, `\u%04x`, u)
			}
		}
		i += n
	}
	if out == nil {
		return b, false
	}
	return out, true
}

func isLowerHex(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if (c < '0' || c > '9') && (c < 'a' || c > 'f') {
			return false
		}
	}
	return true
}
