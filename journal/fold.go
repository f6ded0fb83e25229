package journal

import (
	"context"
	"errors"
	"io"
	"time"
)

// CallOptions say how a CallReader reads.
type CallOptions struct {
	ReadOptions
	// Events keeps each call's records in Call.Events, whole. Without it
	// or Whole, records are read Brief and a call holds only what its
	// records fold into, less its arguments and output: all a table of
	// calls shows.
	Events bool
	// Whole reads each record whole, so that each call holds all its
	// records fold into (arguments, edit and output included, as replay
	// needs them), without keeping the records in Call.Events.
	Whole bool
	// Since leaves out the calls whose first record is older.
	Since time.Time
}

// holdLimit bounds, roughly in bytes, the calls a CallReader holds back
// to return calls in the order they began. Past it, calls that have ended
// go out at once, ahead of one that began earlier and is still open.
const holdLimit = 16 << 20

// CallReader streams a journal's calls, each folded from its records as
// they stream and returned once it has ended, in the order the calls began.
// It keeps only calls not yet ended, and calls that ended behind one still
// open up to a bound, so its memory follows the number of calls in flight,
// not the journal's size. A call still open when its segment has been read
// to its end (or, following, at a closing seal) is returned as it stands.
type CallReader struct {
	r       *Reader
	opts    CallOptions
	limit   int
	calls   map[callKey]*slot // calls not yet ended
	skipped map[callKey]bool  // calls begun before Since, not yet ended
	queue   []*slot           // calls held, in the order they began
	held    int               // their rough size
	out     []Call            // released, not yet returned
	err     error             // what stopped the reader; io.EOF at the end
}

// slot is one held call.
type slot struct {
	key  callKey
	call Call
	done bool
	size int
}

// NewCallReader opens the journal at path for streaming its calls; see
// NewReader for what path may be.
func NewCallReader(path string, opts CallOptions) (*CallReader, error) {
	opts.Brief = !opts.Events && !opts.Whole
	r, err := NewReader(path, opts.ReadOptions)
	if err != nil {
		return nil, err
	}
	c := &CallReader{r: r, opts: opts, limit: holdLimit,
		calls: map[callKey]*slot{}, skipped: map[callKey]bool{}}
	if opts.Follow {
		// Following, a call is shown when it ends, not held for another.
		c.limit = 0
	}
	return c, nil
}

// Next returns the next call that has ended, io.EOF when the journal is
// read, or (following) ctx.Err() when ctx ends. A read error is returned
// after the calls held when it happened.
func (c *CallReader) Next(ctx context.Context) (Call, error) {
	for len(c.out) == 0 {
		if c.err != nil {
			return Call{}, c.err
		}
		rec, err := c.r.Next(ctx)
		if err != nil {
			c.err = err
			if errors.Is(err, io.EOF) || !c.opts.Follow {
				c.releaseAll()
			}
			continue
		}
		c.add(rec)
		for _, seg := range c.r.takeEnded() {
			c.endSegment(seg)
		}
		c.release()
	}
	call := c.out[0]
	c.out[0] = Call{}
	c.out = c.out[1:]
	return call, nil
}

// Close lets go of the journal's files.
func (c *CallReader) Close() error { return c.r.Close() }

// add folds one record into its call.
func (c *CallReader) add(r Record) {
	if r.Call == "" {
		return
	}
	k := callKey{r.Segment, r.Call}
	if c.skipped[k] {
		if ends(r.Event, r.Decision, r.Ending) {
			delete(c.skipped, k)
		}
		return
	}
	s := c.calls[k]
	if s == nil {
		if r.Time.Before(c.opts.Since) {
			if !ends(r.Event, r.Decision, r.Ending) {
				c.skipped[k] = true
			}
			return
		}
		s = &slot{key: k, call: newCall(r)}
		c.calls[k] = s
		c.queue = append(c.queue, s)
	}
	s.call.add(r, c.opts.Events)
	n := roughSize(&r)
	s.size += n
	c.held += n
	if s.call.ended() {
		s.done = true
		delete(c.calls, k)
	}
}

// endSegment lets go of the calls of a segment read to its end.
func (c *CallReader) endSegment(seg string) {
	for k, s := range c.calls {
		if k.segment == seg {
			s.done = true
			delete(c.calls, k)
		}
	}
	for k := range c.skipped {
		if k.segment == seg {
			delete(c.skipped, k)
		}
	}
}

// release returns the calls at the front of the queue that have ended;
// past the hold limit, every call that has ended.
func (c *CallReader) release() {
	i := 0
	for i < len(c.queue) && c.queue[i].done {
		c.emit(c.queue[i])
		c.queue[i] = nil
		i++
	}
	c.queue = c.queue[i:]
	if c.held <= c.limit {
		return
	}
	kept := c.queue[:0]
	for _, s := range c.queue {
		if s.done {
			c.emit(s)
		} else {
			kept = append(kept, s)
		}
	}
	clear(c.queue[len(kept):])
	c.queue = kept
}

// releaseAll returns every call held, ended or not.
func (c *CallReader) releaseAll() {
	for _, s := range c.queue {
		c.emit(s)
	}
	c.queue, c.calls = nil, map[callKey]*slot{}
}

func (c *CallReader) emit(s *slot) {
	c.out = append(c.out, s.call)
	c.held -= s.size
}

// roughSize is about what a record adds to a held call in memory.
func roughSize(r *Record) int {
	n := 256 + len(r.Reason) + len(r.Error) + len(r.Path) + len(r.Cwd)
	for _, a := range r.Argv {
		n += len(a) + 16
	}
	n += 64 * len(r.Args)
	for _, b := range []*Blob{r.Stdin, r.Stdout, r.Stderr} {
		if b != nil {
			n += len(b.Text) + len(b.Base64) + 64
		}
	}
	return n
}
