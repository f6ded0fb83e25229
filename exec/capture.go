package exec

// Read buffer sizes. A reader starts small, since most commands print
// little and a run should not cost a large allocation, and doubles its
// buffer each time a read fills it, up to readSize. A read cannot return
// more than the pipe holds, so when one fills a buffer of the default pipe
// size the reader asks the kernel for a pipe of readSize too: a flooding
// child is then drained in few, large reads, while a quiet one costs no
// extra system call.
const (
	firstReadSize = 4 << 10
	defaultPipe   = 64 << 10
	readSize      = 256 << 10
	minCapture    = 256 // the least a stream's kept output is given
)

// capture reads one of a child's output streams until EOF, keeping the first
// limit bytes and counting the rest. It never stops reading early: a reader
// that stopped would leave the child blocked on a full pipe, which is how a
// capped run turns into a hung one. Memory is bounded by limit plus one read
// buffer, however much the child writes and however long its lines are
// (nothing here looks for newlines).
type capture struct {
	stream Stream
	limit  int64
	feed   *feed // nil when nobody watches live output
	// overflow is called from the reading goroutine when the stream first
	// passes limit; nil when the command drains past its cap.
	overflow func()

	data  []byte
	total int64
}

// newCapture returns a capture for stream s that keeps limit bytes.
func newCapture(s Stream, limit int64, f *feed, overflow func()) *capture {
	return &capture{stream: s, limit: limit, feed: f, overflow: overflow}
}

// readBuffer is a reader's buffer: made on first use, on the heap (made by
// the reader it would sit on its stack and cost every run a stack copy),
// or a small one its owner already has, and made larger each time a read
// fills it, up to readSize.
type readBuffer struct {
	b []byte
}

// get returns the buffer for the next read.
func (rb *readBuffer) get() []byte {
	if rb.b == nil {
		rb.b = make([]byte, firstReadSize)
	}
	return rb.b
}

// filled records that a read returned n bytes into get's buffer. It
// reports whether the pipe read from should be grown: a read that filled
// a buffer of the default pipe size took all the pipe held.
func (rb *readBuffer) filled(n int) (growPipe bool) {
	if n < len(rb.b) || len(rb.b) >= readSize {
		return false
	}
	growPipe = len(rb.b) == defaultPipe
	rb.b = make([]byte, max(firstReadSize, 2*len(rb.b)))
	return growPipe
}

// add keeps what fits under the cap, hands that part to the live feed and
// counts everything.
func (c *capture) add(p []byte) {
	before := c.total
	c.total += int64(len(p))
	if room := c.limit - int64(len(c.data)); room > 0 {
		keep := p[:min(int64(len(p)), room)]
		c.data = appendCapped(c.data, keep, c.limit)
		if c.feed != nil {
			c.feed.push(c.stream, keep)
		}
	}
	if before <= c.limit && c.total > c.limit && c.overflow != nil {
		c.overflow()
	}
}

// output returns what was kept and counted.
func (c *capture) output() Output {
	return Output{Data: c.data, Bytes: c.total, Truncated: c.total > int64(len(c.data))}
}

// appendCapped appends p to b, growing b's capacity geometrically from
// minCapture but never past limit, so a stream that stops just over a power
// of two does not pin almost twice its cap, and a line of output costs no
// page.
func appendCapped(b, p []byte, limit int64) []byte {
	need := len(b) + len(p)
	if need <= cap(b) {
		return append(b, p...)
	}
	grown := int64(max(2*cap(b), need, minCapture))
	grown = min(grown, max(limit, int64(need)))
	nb := make([]byte, len(b), grown)
	copy(nb, b)
	return append(nb, p...)
}
