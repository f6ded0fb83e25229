package journal

import (
	"bytes"
	"errors"
	"fmt"
	"io"
)

// maxLine bounds one record's line. The journal caps what it stores of each
// stream, so a real record is far smaller; a "line" beyond this is a file
// that is not a journal, and reading it whole would cost its size in memory.
const maxLine = 64 << 20

// lineReader splits a file into complete lines. Bytes after the last newline
// are held back, never returned: a writer may still be finishing them (a
// later next, once the file grew, returns the whole line) or died mid-line
// (a torn tail, counted by torn).
type lineReader struct {
	r       io.Reader
	buf     []byte
	start   int   // buf[start:end] is read but not yet returned
	end     int   //
	scanned int   // buf[start:scanned] holds no newline
	off     int64 // offset just past the last line returned
	lines   int   // lines returned
}

func newLineReader(r io.Reader) *lineReader {
	return &lineReader{r: r, buf: make([]byte, 64<<10)}
}

// newLineReaderAt reads r from offset off (where r already stands), so that
// offsets and torn counts are of the whole file.
func newLineReaderAt(r io.Reader, off int64) *lineReader {
	l := newLineReader(r)
	l.off = off
	return l
}

// next returns the next complete line without its newline, valid until the
// next call, or io.EOF when no complete line is left for now.
func (l *lineReader) next() ([]byte, error) {
	for {
		if i := bytes.IndexByte(l.buf[l.scanned:l.end], '\n'); i >= 0 {
			stop := l.scanned + i
			line := l.buf[l.start:stop]
			l.start, l.scanned = stop+1, stop+1
			l.off += int64(len(line) + 1)
			l.lines++
			return line, nil
		}
		l.scanned = l.end
		if err := l.fill(); err != nil {
			return nil, err
		}
	}
}

// fill reads more of the file, making room first; io.EOF when there is no
// more for now.
func (l *lineReader) fill() error {
	if l.start > 0 {
		n := copy(l.buf, l.buf[l.start:l.end])
		l.scanned -= l.start
		l.start, l.end = 0, n
	}
	if l.end == len(l.buf) {
		if len(l.buf) >= maxLine {
			return errLongLine(l.off)
		}
		l.buf = append(l.buf, make([]byte, len(l.buf))...)
	}
	n, err := l.r.Read(l.buf[l.end:])
	l.end += n
	switch {
	case n > 0:
		return nil
	case err == nil:
		return io.ErrNoProgress
	case errors.Is(err, io.EOF):
		return io.EOF
	}
	return err
}

// torn is how many bytes follow the last complete line, as far as read.
func (l *lineReader) torn() int64 { return int64(l.end - l.start) }

// offset is the file offset just past the last line returned.
func (l *lineReader) offset() int64 { return l.off }

func errLongLine(off int64) error {
	return fmt.Errorf("the line at offset %d is longer than %d bytes: this is not a journal", off, maxLine)
}
