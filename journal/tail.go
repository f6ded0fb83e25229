package journal

import (
	"bytes"
	"io"
)

// scanBackward hands fn the complete lines of r (size bytes long), last
// first, each with its offset, until fn returns false. Bytes after the last
// newline are a torn tail and are skipped. The line is valid only during
// the call. Reading goes back a block at a time, so finding something near
// the end of a large file reads only that much of it.
func scanBackward(r io.ReaderAt, size int64, fn func(line []byte, off int64) bool) error {
	const block = 64 << 10
	var (
		buf   []byte // file bytes [pos, pos+len(buf)) not yet handed out
		pos   = size
		chunk = make([]byte, block)
		torn  = true // still looking for the last newline
	)
	for {
		if i := bytes.LastIndexByte(buf, '\n'); i >= 0 {
			if torn {
				torn = false
			} else if !fn(buf[i+1:], pos+int64(i)+1) {
				return nil
			}
			buf = buf[:i]
			continue
		}
		if pos == 0 {
			if !torn && len(buf) > 0 {
				fn(buf, 0)
			}
			return nil
		}
		if len(buf) > maxLine {
			return errLongLine(pos)
		}
		n := min(int64(block), pos)
		pos -= n
		if _, err := r.ReadAt(chunk[:n], pos); err != nil {
			return err
		}
		buf = append(append(make([]byte, 0, int(n)+len(buf)), chunk[:n]...), buf...)
	}
}

// sealAt is a seal found in a file, with where it is.
type sealAt struct {
	rec  head
	hash string // the seal line's own hash
	off  int64  // where its line begins
	end  int64  // where the line after it begins
}

// isSealLine is a cheap first look before a line is decoded: the encoder
// writes "event" early and always the same way.
func isSealLine(line []byte) bool {
	return bytes.Contains(line, []byte(`"event":"sealed"`)) || bytes.Contains(line, []byte(`"event":"closed"`))
}

// lastSeal finds the last seal of segment in r whose line hash and MAC hold.
// A seal that does not hold is passed over: it may be forged or damaged,
// and an earlier good one is still a safe place to start.
func lastSeal(r io.ReaderAt, size int64, segment string, key []byte) (*sealAt, error) {
	var found *sealAt
	err := scanBackward(r, size, func(line []byte, off int64) bool {
		if !isSealLine(line) {
			return true
		}
		var h head
		if decodeHead(line, &h) != nil || (h.Event != Sealed && h.Event != Closed) || !sealOf(h, line, segment, key) {
			return true
		}
		stated, _, _ := lineHashes(line)
		found = &sealAt{rec: h, hash: stated, off: off, end: off + int64(len(line)) + 1}
		return false
	})
	return found, err
}
