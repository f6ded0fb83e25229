package journal

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
)

// start is where recovery walks a dead segment from: the chain and the open
// calls just before a place in its last file, and, after walk, what the
// rest of the file held.
type start struct {
	segment string
	key     []byte
	off     int64 // where the walk begins in the last file
	chain   chain
	open    openCalls
	torn    int64     // bytes after the last complete line
	closed  *headFile // the file ends in a closing seal that holds
}

// findStart finds the last seal to recover a segment from without reading
// it all. The last file is read backwards to its last good seal; failing
// that, the seal that ended the previous file (each rotation leaves one);
// failing that (a journal from before seals, or one whose seals do not
// hold), the segment is walked from its start.
func findStart(dir string, s segmentFiles, last *os.File, key []byte) (*start, error) {
	st := &start{segment: s.id, key: key}
	size, err := fileSize(last)
	if err != nil {
		return nil, err
	}
	name := filepath.Base(last.Name())
	seal, err := lastSeal(last, size, s.id, key)
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", last.Name(), err)
	}
	if seal != nil {
		st.off = seal.off
		st.chain = chain{file: name, line: -1, seq: seal.rec.Seq - 1, prev: seal.rec.Prev}
		st.open.load(seal.rec.Open)
		return st, nil
	}
	earlier := s.parts[:len(s.parts)-1]
	if len(earlier) > 0 {
		seal, err := lastSealOf(inDir(dir, partName(s.id, earlier[len(earlier)-1])), s.id, key)
		if err != nil {
			return nil, err
		}
		if seal != nil {
			st.chain = chain{file: name, seq: seal.rec.Seq, prev: seal.hash}
			st.open.load(seal.rec.Open)
			return st, nil
		}
	}
	for _, p := range earlier {
		if err := st.walkEarlier(inDir(dir, partName(s.id, p))); err != nil {
			return nil, err
		}
	}
	st.chain.file, st.chain.line = name, 0
	return st, nil
}

// lastSealOf returns the seal that ends the file at path, nil when its last
// line is not a seal that holds.
func lastSealOf(path, segment string, key []byte) (*sealAt, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	size, err := fileSize(f)
	if err != nil {
		return nil, err
	}
	seal, err := lastSeal(f, size, segment, key)
	if err != nil || seal == nil || seal.end != size {
		return nil, err
	}
	return seal, nil
}

// walkEarlier follows the chain and the open calls through a whole file
// before the last.
func (st *start) walkEarlier(path string) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	st.chain.file, st.chain.line = filepath.Base(path), 0
	return st.chain.walk(newLineReader(f), func(h head, ok bool, _ []byte) error {
		st.open.track(h.Call, h.Event, h.Decision, h.Ending)
		return nil
	})
}

// walk reads the last file from the start place to its end and returns
// the offset just past its last complete line.
func (st *start) walk(f *os.File, part int) (int64, error) {
	if _, err := f.Seek(st.off, io.SeekStart); err != nil {
		return 0, err
	}
	lines := newLineReaderAt(f, st.off)
	first := st.off == 0 && st.chain.seq == 0
	err := st.chain.walk(lines, func(h head, ok bool, line []byte) error {
		if !ok && first && lines.lines == 1 {
			return fmt.Errorf("%s does not look like an assent journal: its first line is not a record", f.Name())
		}
		st.open.track(h.Call, h.Event, h.Decision, h.Ending)
		st.closed = nil
		if h.Event == Closed {
			st.closed = st.closing(h, line, part)
		}
		return nil
	})
	st.torn = lines.torn()
	return lines.offset(), err
}

// closing returns the head a closing seal gives, nil when it does not hold.
func (st *start) closing(h head, line []byte, part int) *headFile {
	if !sealOf(h, line, st.segment, st.key) {
		return nil
	}
	stated, _, _ := lineHashes(line)
	return &headFile{Segment: st.segment, Part: part, Seq: h.Seq, Hash: stated, Closed: true}
}

func fileSize(f *os.File) (int64, error) {
	info, err := f.Stat()
	if err != nil {
		return 0, err
	}
	return info.Size(), nil
}
