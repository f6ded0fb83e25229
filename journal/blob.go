package journal

import (
	"crypto/sha256"
	"encoding/hex"
	"unicode/utf8"
)

// DefaultOutputCap is how many bytes of each stream of each call are stored
// when Options.OutputCap is zero. The hash and true length cover the rest.
const DefaultOutputCap = 64 << 10

// Blob is a stream of bytes (stdout, stderr, stdin) as the journal keeps it:
// the first bytes up to a cap, the true length, and the SHA-256 of what the
// journal was given, so a copy of the output kept elsewhere can be checked
// against the record even when the record holds only its beginning.
//
// A caller fills Text with the bytes as they are (any bytes, valid UTF-8 or
// not) and Bytes with the stream's true length when something before the
// journal already cut it; Append does the rest.
type Blob struct {
	// Text is the stored bytes when they are valid UTF-8.
	Text string `json:"text,omitempty"`
	// Base64 is the stored bytes when they are not valid UTF-8: JSON would
	// silently replace such bytes, and the record would lie about them.
	Base64 []byte `json:"base64,omitempty"`
	// Bytes is the stream's true length, stored or not.
	Bytes int64 `json:"bytes"`
	// SHA256 is the hex SHA-256 of the bytes the journal was given, after
	// secrets were masked.
	SHA256 string `json:"sha256,omitempty"`
	// Truncated is true when fewer bytes are stored than the stream had.
	Truncated bool `json:"truncated,omitempty"`
}

// NewBlob wraps a stream's bytes for a record. total is the stream's true
// length when data is only its beginning; zero means len(data).
func NewBlob(data []byte, total int64) *Blob {
	return &Blob{Text: string(data), Bytes: total}
}

// Data returns the stored bytes.
func (b *Blob) Data() []byte {
	if b == nil {
		return nil
	}
	if b.Base64 != nil {
		return b.Base64
	}
	return []byte(b.Text)
}

// store returns the Blob as it is written: masked by m (nil for a
// secret-free record), hashed, cut to max bytes (negative: none kept) and
// encoded as text or base64. The caller's Blob is left as it was.
func (b *Blob) store(max int, m *masker) *Blob {
	if b == nil {
		return nil
	}
	given := b.Text
	if b.Base64 != nil {
		given = string(b.Base64)
	}
	total := b.Bytes
	if total < int64(len(given)) {
		total = int64(len(given))
	}
	cutEarlier := total > int64(len(given))
	if m != nil {
		given = m.mask(given)
		if cutEarlier {
			// The cut before the journal may have fallen inside a secret,
			// leaving its first bytes at the end where no whole value is.
			given = m.maskTail(given)
		}
	}
	sum := sha256.Sum256([]byte(given))
	out := &Blob{Bytes: total, SHA256: hex.EncodeToString(sum[:]), Truncated: cutEarlier}
	kept := given
	if max < 0 {
		kept = ""
	} else if len(kept) > max {
		kept = kept[:runeCut(kept, max)]
	}
	if len(kept) < len(given) {
		out.Truncated = true
	}
	if utf8.ValidString(kept) {
		out.Text = kept
	} else {
		out.Base64 = []byte(kept)
	}
	return out
}

// runeCut returns an index at or just below n that does not split a UTF-8
// sequence, so valid text cut at the cap stays valid text.
func runeCut(s string, n int) int {
	for i := n; i > 0 && i > n-utf8.UTFMax; i-- {
		if utf8.RuneStart(s[i]) {
			return i
		}
	}
	return n
}
