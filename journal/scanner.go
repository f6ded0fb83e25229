package journal

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
)

// lineReader splits a journal into complete lines. Bytes after the last
// newline are a torn tail: a writer died, or is still writing, mid-line.
type lineReader struct {
	r    *bufio.Reader
	end  int64 // offset just past the last complete line
	torn int64 // length of the torn tail, known at io.EOF
}

func newLineReader(r io.Reader) *lineReader {
	return &lineReader{r: bufio.NewReaderSize(r, 64<<10)}
}

// next returns the next complete line without its newline, or io.EOF.
func (l *lineReader) next() ([]byte, error) {
	line, err := l.r.ReadBytes('\n')
	switch {
	case err == nil:
		l.end += int64(len(line))
		return line[:len(line)-1], nil
	case errors.Is(err, io.EOF):
		l.torn = int64(len(line))
		return nil, io.EOF
	}
	return nil, err
}

// Scanner reads records from a journal in order. It opens nothing for
// writing and repairs nothing: a torn last line is skipped and counted, so a
// journal that a running console is appending to can be read at any moment.
// A line in the middle that is not a record stops the scan with an error
// naming it; Verify says more about such a journal.
type Scanner struct {
	lines *lineReader
	rec   Record
	line  int
	err   error
}

// NewScanner returns a Scanner reading from r.
func NewScanner(r io.Reader) *Scanner {
	return &Scanner{lines: newLineReader(r)}
}

// Scan advances to the next record and reports whether there is one.
func (s *Scanner) Scan() bool {
	if s.err != nil {
		return false
	}
	raw, err := s.lines.next()
	if err != nil {
		if !errors.Is(err, io.EOF) {
			s.err = err
		}
		return false
	}
	s.line++
	var rec Record
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	if err := dec.Decode(&rec); err != nil {
		s.err = fmt.Errorf("journal line %d is not a record: %w", s.line, err)
		return false
	}
	s.rec = rec
	return true
}

// Record returns the record Scan found.
func (s *Scanner) Record() Record { return s.rec }

// Line returns the 1-based line number of the current record.
func (s *Scanner) Line() int { return s.line }

// Err returns the error that stopped the scan, or nil at a clean end.
func (s *Scanner) Err() error { return s.err }

// TornBytes returns the length of an unfinished last line, once Scan has
// returned false at the end of the input.
func (s *Scanner) TornBytes() int64 { return s.lines.torn }

// Read returns every complete record in the journal at path.
func Read(path string) ([]Record, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var recs []Record
	s := NewScanner(f)
	for s.Scan() {
		recs = append(recs, s.Record())
	}
	if err := s.Err(); err != nil {
		return recs, fmt.Errorf("%s: %w", path, err)
	}
	return recs, nil
}
