package journal

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"strings"
)

// FaultKind sorts what verification found into what it means.
type FaultKind string

const (
	// BrokenChain: a record was changed, removed, inserted or reordered;
	// the hashes show it, no key needed.
	BrokenChain FaultKind = "chain"
	// Rewritten: a seal's MAC does not match the chain it seals: the
	// records before it were rewritten with their hashes recomputed, or the
	// seal was made without the key.
	Rewritten FaultKind = "rewritten"
	// Truncated: records are missing from a segment's end.
	Truncated FaultKind = "truncated"
	// MissingFile: a file of a segment is gone.
	MissingFile FaultKind = "missing-file"
)

// Fault is something that does not hold in a journal.
type Fault struct {
	Kind    FaultKind `json:"kind"`
	Segment string    `json:"segment,omitempty"`
	// File is the file's base name, when the fault is in one.
	File string `json:"file,omitempty"`
	// Seq is the record's seq as written, or the seq expected at that
	// place when the line could not be read as a record; 0 when the fault
	// is in no one record.
	Seq int64 `json:"seq,omitempty"`
	// Line is the 1-based line number in File; 0 when not known.
	Line int `json:"line,omitempty"`
	// Problem says what does not hold, in words.
	Problem string `json:"problem"`
}

// Error names where the fault is and what is wrong.
func (f *Fault) Error() string {
	var where []string
	if f.Seq > 0 {
		where = append(where, fmt.Sprintf("record %d", f.Seq))
	}
	switch {
	case f.File != "" && f.Line > 0:
		where = append(where, fmt.Sprintf("(%s line %d)", f.File, f.Line))
	case f.File != "":
		where = append(where, "("+f.File+")")
	case f.Line > 0:
		where = append(where, fmt.Sprintf("(line %d)", f.Line))
	case f.Segment != "":
		where = append(where, "segment "+f.Segment)
	}
	if len(where) == 0 {
		return f.Problem
	}
	return strings.Join(where, " ") + ": " + f.Problem
}

// head is the part of a record that the chain, seals and recovery look at.
// Decoding only it keeps Open and Verify from building every record's
// arguments and output.
type head struct {
	Seq      int64      `json:"seq"`
	Call     string     `json:"call"`
	Event    Event      `json:"event"`
	Decision Decision   `json:"decision"`
	Ending   Ending     `json:"ending"`
	Segment  string     `json:"segment"`
	Part     int        `json:"part"`
	Open     []OpenCall `json:"open"`
	Seal     string     `json:"seal"`
	Prev     string     `json:"prev"`
	Hash     string     `json:"hash"`
}

// chain walks complete lines in order and keeps the first Fault. After a
// fault it carries on from what the bad line states, so that one break is
// reported once and the records after it are still counted and folded.
type chain struct {
	file    string // base name of the file being walked, for faults
	line    int    // lines walked in file; -1: the walk began mid-file
	records int64  // lines that decoded as records
	seq     int64  // seq of the last record
	prev    string // hash of the last record, as it states it
	fault   *Fault
	// resync: the next line follows a gap (a missing file), so the chain
	// takes up from what it states, and the gap is reported once.
	resync bool
}

// add checks one line (without its newline). ok is false when the line is
// not a record at all.
func (c *chain) add(line []byte) (h head, ok bool) {
	if c.line >= 0 {
		c.line++
	}
	resync := c.resync
	c.resync = false
	if err := decodeHead(line, &h); err != nil {
		want := c.seq + 1
		c.flag(want, "is not a JSON record: "+err.Error())
		sum := sha256.Sum256(line)
		c.seq, c.prev = want, hex.EncodeToString(sum[:])
		return head{}, false
	}
	if resync {
		c.seq, c.prev = h.Seq-1, h.Prev
	}
	want := c.seq + 1
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
		c.fault = &Fault{Kind: BrokenChain, File: c.file, Seq: seq, Line: max(c.line, 0), Problem: problem}
	}
}

// walk feeds every complete line of lines to c and hands each to each,
// stopping at the first error it returns. Verify (of a single file, and of
// each file of a segment) and recovery are this walk with different eyes.
// The Reader checks no chain: `assent log` lists, `--verify` checks.
func (c *chain) walk(lines *lineReader, each func(h head, ok bool, line []byte) error) error {
	for {
		line, err := lines.next()
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return err
		}
		h, ok := c.add(line)
		if err := each(h, ok, line); err != nil {
			return err
		}
	}
}
