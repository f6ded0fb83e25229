package journal

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// source is one segment being read: its files in order, one line buffered.
// A single-file journal is a source of one file that never rotates.
type source struct {
	dir    string // "" for a single file
	id     string
	path   string // the single file
	start  time.Time
	part   int // the part being read; 0 before the first
	f      *os.File
	lines  *lineReader
	rec    Record // the record ready, when ready
	ready  bool
	closed bool // its closing seal was read: nothing more will come
	opts   ReadOptions
}

func newSegmentSource(dir, id string, opts ReadOptions) *source {
	return &source{dir: dir, id: id, start: segmentStart(id), opts: opts}
}

func newFileSource(path string, opts ReadOptions) *source {
	return &source{id: filepath.Base(path), path: path, opts: opts}
}

// file names the file being read, for errors.
func (s *source) file() string {
	if s.dir == "" {
		return s.path
	}
	return inDir(s.dir, partName(s.id, s.part))
}

// next makes the next record ready; false when there is none for now (a
// following reader asks again later).
func (s *source) next() (bool, error) {
	s.ready = false
	for !s.closed {
		if s.f == nil && !s.openNext() {
			return false, nil
		}
		line, err := s.lines.next()
		if errors.Is(err, io.EOF) {
			if s.dir != "" && exists(inDir(s.dir, partName(s.id, s.part+1))) {
				// The writer begins the next file only once this one
				// is complete, so nothing more will come here.
				s.f.Close()
				s.f = nil
				continue
			}
			return false, nil
		}
		if err != nil {
			return false, fmt.Errorf("%s: %w", s.file(), err)
		}
		s.rec = Record{}
		decode := decodeRecord
		if s.opts.Brief {
			decode = decodeBrief
		}
		if err := decode(line, &s.rec); err != nil {
			return false, fmt.Errorf("%s line %d is not a record: %w", s.file(), s.lines.lines, err)
		}
		s.rec.Segment = s.id
		s.closed = s.rec.Event == Closed
		if !s.rec.Event.bookkeeping() {
			s.ready = true
			return true, nil
		}
	}
	return false, nil
}

// openNext opens the segment's next file, if there is one yet.
func (s *source) openNext() bool {
	path := s.path
	if s.dir != "" {
		path = inDir(s.dir, partName(s.id, s.part+1))
	} else if s.part > 0 {
		return false
	}
	f, err := os.Open(path)
	if err != nil {
		return false
	}
	s.f, s.lines = f, newLineReader(f)
	s.part++
	return true
}

func (s *source) close() {
	if s.f != nil {
		s.f.Close()
		s.f = nil
	}
}

// wireRecord decodes a line with its arguments kept raw, so that only they
// go through a Decoder with UseNumber: numbers an agent sent round-trip
// exactly, and every other field decodes at Unmarshal's speed.
type wireRecord struct {
	*Record
	Args json.RawMessage `json:"args,omitempty"`
}

func decodeRecord(line []byte, r *Record) error {
	w := wireRecord{Record: r}
	if err := json.Unmarshal(line, &w); err != nil {
		return err
	}
	if len(w.Args) == 0 || bytes.Equal(w.Args, []byte("null")) {
		return nil
	}
	dec := json.NewDecoder(bytes.NewReader(w.Args))
	dec.UseNumber()
	return dec.Decode(&r.Args)
}

func exists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}

// sourceHeap orders segments by their ready record: time, then segment
// name (records of one segment are in seq order by construction).
type sourceHeap []*source

func (h sourceHeap) Len() int { return len(h) }
func (h sourceHeap) Less(i, j int) bool {
	a, b := &h[i].rec, &h[j].rec
	if !a.Time.Equal(b.Time) {
		return a.Time.Before(b.Time)
	}
	return strings.Compare(h[i].id, h[j].id) < 0
}
func (h sourceHeap) Swap(i, j int) { h[i], h[j] = h[j], h[i] }
func (h *sourceHeap) Push(x any)   { *h = append(*h, x.(*source)) }
func (h *sourceHeap) Pop() any {
	old := *h
	s := old[len(old)-1]
	*h = old[:len(old)-1]
	return s
}
