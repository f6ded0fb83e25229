package journal

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
)

// Fault is the first record at which a journal's chain does not hold.
type Fault struct {
	// Seq is the record's seq as written, or the seq expected at that
	// place when the line could not be read as a record.
	Seq int64 `json:"seq"`
	// Line is the 1-based line number in the file.
	Line int `json:"line"`
	// Problem says what does not hold, in words.
	Problem string `json:"problem"`
}

// Error names the record and what is wrong with it.
func (f *Fault) Error() string {
	return fmt.Sprintf("record %d (line %d): %s", f.Seq, f.Line, f.Problem)
}

// head is the part of a record that the chain and recovery look at.
// Decoding only it keeps Open and Verify from building every record's
// arguments and output.
type head struct {
	Seq      int64    `json:"seq"`
	Call     string   `json:"call"`
	Event    Event    `json:"event"`
	Decision Decision `json:"decision"`
	Prev     string   `json:"prev"`
	Hash     string   `json:"hash"`
}

// chain walks complete lines in order and keeps the first Fault. After a
// fault it carries on from what the bad line states, so that one break is
// reported once and the records after it are still counted and folded.
type chain struct {
	line    int
	records int64  // lines that decoded as records
	seq     int64  // seq of the last record
	prev    string // hash of the last record, as it states it
	fault   *Fault
}

// add checks one line (without its newline). ok is false when the line is
// not a record at all.
func (c *chain) add(line []byte) (h head, ok bool) {
	c.line++
	want := c.seq + 1
	if err := json.Unmarshal(line, &h); err != nil {
		c.flag(want, "is not a JSON record: "+err.Error())
		sum := sha256.Sum256(line)
		c.seq, c.prev = want, hex.EncodeToString(sum[:])
		return head{}, false
	}
	c.records++
	stated, actual, framed := lineHashes(line)
	switch {
	case !framed:
		c.flag(h.Seq, "does not end with its hash field")
	case stated != actual:
		c.flag(h.Seq, "its hash does not match its contents: the record was changed")
	case h.Prev != c.prev:
		c.flag(h.Seq, "its prev is not the hash of the record before it: a record was removed, inserted or changed")
	case h.Seq != want:
		c.flag(h.Seq, fmt.Sprintf("its seq follows %d", c.seq))
	}
	c.seq, c.prev = h.Seq, h.Hash
	if framed {
		c.prev = stated
	}
	return h, true
}

func (c *chain) flag(seq int64, problem string) {
	if c.fault == nil {
		c.fault = &Fault{Seq: seq, Line: c.line, Problem: problem}
	}
}
