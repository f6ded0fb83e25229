package journal

import (
	"container/heap"
	"context"
	"io"
	"time"
)

// ReadOptions say how a Reader reads.
type ReadOptions struct {
	// Follow keeps the Reader waiting for what writers append, new
	// segments and files included, until Next's context ends.
	Follow bool
	// Poll is how often a following Reader looks for more; zero means
	// DefaultPoll.
	Poll time.Duration
	// Brief leaves out of each record what a table of calls does not show
	// (arguments, environment, stdin, output, hashes), which is most of the
	// time decoding takes.
	Brief bool
}

// DefaultPoll is how often `assent log --follow` looks for new records.
const DefaultPoll = 200 * time.Millisecond

// Reader streams a journal's records in time order: the segments of a
// directory merged, or a single-file journal as it is. It holds one line
// per segment it is reading, and reads a segment only from the time its
// first record can be due, so memory does not grow with the journal. It
// changes nothing and takes no lock: it can read a journal being written.
// Records come with Segment filled.
type Reader struct {
	dir     string // "" for a single file
	opts    ReadOptions
	pending []*source  // not begun yet, oldest first
	ready   sourceHeap // a record ready in each, earliest first
	waiting []*source  // following: at their end for now
	seen    map[string]bool
	ended   []string  // segments read to their end since takeEnded
	listed  time.Time // when a following reader last listed dir
	err     error     // met reading ahead, returned after the record before it
}

// NewReader opens the journal at path for reading: a directory, or a
// single-file journal. A journal that does not exist is an error wrapping
// fs.ErrNotExist. For a directory that does not exist yet beside a
// single-file journal (the old default location), that file is read.
func NewReader(path string, opts ReadOptions) (*Reader, error) {
	if opts.Poll <= 0 {
		opts.Poll = DefaultPoll
	}
	r := &Reader{opts: opts, seen: map[string]bool{}}
	path, dir, err := locate(path)
	if err != nil {
		return nil, err
	}
	if !dir {
		r.pending = []*source{newFileSource(path, opts)}
		return r, nil
	}
	r.dir = path
	if err := r.list(); err != nil {
		return nil, err
	}
	// A single-file journal beside the directory not yet adopted (an older
	// assent was still writing it) is part of the journal too.
	if legacy := legacyFile(path); exists(legacy) {
		r.pending = append([]*source{newFileSource(legacy, opts)}, r.pending...)
	}
	return r, nil
}

// list adds the segments of the directory not seen before.
func (r *Reader) list() error {
	l, err := listDir(r.dir)
	if err != nil {
		return err
	}
	for _, s := range l.segments {
		if !r.seen[s.id] && len(s.parts) > 0 {
			r.seen[s.id] = true
			r.pending = append(r.pending, newSegmentSource(r.dir, s.id, r.opts))
		}
	}
	r.listed = time.Now()
	return nil
}

// Next returns the next record. At the end it returns io.EOF; a following
// Reader instead waits for more until ctx ends, and returns ctx.Err().
func (r *Reader) Next(ctx context.Context) (Record, error) {
	for {
		if r.err != nil {
			return Record{}, r.err
		}
		if err := r.begin(); err != nil {
			return Record{}, err
		}
		if r.ready.Len() > 0 {
			s := r.ready[0]
			rec := s.rec
			more, err := s.next()
			if err != nil {
				r.err = err
				return rec, nil
			}
			if more {
				heap.Fix(&r.ready, 0)
			} else {
				heap.Pop(&r.ready)
				r.rest(s)
			}
			return rec, nil
		}
		if !r.opts.Follow {
			return Record{}, io.EOF
		}
		if err := r.wait(ctx); err != nil {
			return Record{}, err
		}
	}
}

// begin starts every pending segment that may hold a record due before
// the earliest one ready: a segment's records are no older than the second
// its name gives.
func (r *Reader) begin() error {
	for len(r.pending) > 0 {
		s := r.pending[0]
		if r.ready.Len() > 0 && s.start.After(r.ready[0].rec.Time) {
			return nil
		}
		r.pending = r.pending[1:]
		if err := r.advance(s); err != nil {
			return err
		}
	}
	return nil
}

// advance reads a segment's next record: it joins the ready ones, or the
// segment rests.
func (r *Reader) advance(s *source) error {
	more, err := s.next()
	if err != nil {
		return err
	}
	if more {
		heap.Push(&r.ready, s)
	} else {
		r.rest(s)
	}
	return nil
}

// rest puts a segment with nothing ready aside: for good when reading to
// the end or when it is closed, else until a following reader looks again.
func (r *Reader) rest(s *source) {
	if r.opts.Follow && !s.closed {
		r.waiting = append(r.waiting, s)
		return
	}
	s.close()
	r.ended = append(r.ended, s.id)
}

// wait looks for more every Poll until something is ready or ctx ends.
func (r *Reader) wait(ctx context.Context) error {
	t := time.NewTicker(r.opts.Poll)
	defer t.Stop()
	for {
		if r.dir != "" && time.Since(r.listed) >= r.opts.Poll {
			if err := r.list(); err != nil {
				return err
			}
		}
		waiting := r.waiting
		r.waiting = nil
		for i, s := range waiting {
			if err := r.advance(s); err != nil {
				r.waiting = append(r.waiting, waiting[i+1:]...) // for Close
				return err
			}
		}
		if r.ready.Len() > 0 || len(r.pending) > 0 {
			return nil
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-t.C:
		}
	}
}

// takeEnded returns the segments read to their end since the last call.
func (r *Reader) takeEnded() []string {
	e := r.ended
	r.ended = nil
	return e
}

// Close lets go of every file.
func (r *Reader) Close() error {
	for _, group := range [][]*source{r.pending, r.ready, r.waiting} {
		for _, s := range group {
			s.close()
		}
	}
	r.pending, r.ready, r.waiting = nil, nil, nil
	return nil
}

// readAll reads every record of the journal at path.
func readAll(path string, opts ReadOptions) ([]Record, error) {
	r, err := NewReader(path, opts)
	if err != nil {
		return nil, err
	}
	defer r.Close()
	var recs []Record
	for {
		rec, err := r.Next(context.Background())
		if err == io.EOF {
			return recs, nil
		}
		if err != nil {
			return recs, err
		}
		recs = append(recs, rec)
	}
}
