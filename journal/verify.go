package journal

import (
	"errors"
	"io"
	"os"
)

// Report is what walking a journal's chain found.
type Report struct {
	// Records is how many complete lines decoded as records.
	Records int64 `json:"records"`
	// Head is the hash of the last record: a value to note down elsewhere,
	// since a chain proves that nothing changed before the head it ends in,
	// not that the head itself is the one written.
	Head string `json:"head,omitempty"`
	// TornBytes is the length of an unfinished last line. It is not a
	// fault: a console may be in the middle of appending it, and Open cuts
	// it if the writer is gone.
	TornBytes int64 `json:"torn_bytes,omitempty"`
	// Fault is the first record at which the chain breaks; nil when every
	// record holds.
	Fault *Fault `json:"fault,omitempty"`
}

// Verify walks the chain of the journal at path without changing it. The
// error is for a file that could not be read; a broken chain is a Report
// with a Fault.
func Verify(path string) (Report, error) {
	f, err := os.Open(path)
	if err != nil {
		return Report{}, err
	}
	defer f.Close()
	return verify(f)
}

func verify(r io.Reader) (Report, error) {
	c, lines, err := walkChain(r, nil)
	if err != nil {
		return Report{}, err
	}
	return Report{Records: c.records, Head: c.prev, TornBytes: lines.torn, Fault: c.fault}, nil
}

// walkChain feeds every complete line of r to a chain and hands each
// record's head to each (when not nil), stopping at the first error it
// returns. Verify and recovery are the same walk with different eyes.
func walkChain(r io.Reader, each func(c *chain, h head, ok bool) error) (*chain, *lineReader, error) {
	c := &chain{}
	lines := newLineReader(r)
	for {
		line, err := lines.next()
		if errors.Is(err, io.EOF) {
			return c, lines, nil
		}
		if err != nil {
			return c, lines, err
		}
		h, ok := c.add(line)
		if each != nil {
			if err := each(c, h, ok); err != nil {
				return c, lines, err
			}
		}
	}
}
