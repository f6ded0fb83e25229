package server

import (
	"context"
	"errors"
	"io"
	"sync"
	"time"
)

// connWatch cancels a request whose client goes away while it is served.
// A goroutine that waits to read the connection sees the client go (EOF,
// a reset: the request's context is cancelled) or send its next request
// early (the watch ends; the bytes wait in the read buffer). It starts
// only when the request turns out slow, and once its body has been read,
// since nothing else may read the connection meanwhile: slow is the
// request's exec.Slow notice, given when its call waits for an operator
// or its run lasts the server's watchAfter, and when the handler flushes
// an answer it streams. A quick request starts no goroutine, and a run
// alone counts watchAfter in its own wait for the child, with no timer
// (a run read through the runtime's poller, beside others, arms one): on a
// 2-core machine a timer per request, which wakes the thread waiting in
// the runtime's poller, cost a lone call 14 to 37 µs. disarm stops the
// watch before the connection reads on.
type connWatch struct {
	c      *httpConn
	cancel context.CancelFunc

	mu       sync.Mutex
	isSlow   bool          // the notice came
	bodyRead bool          // the body has been read to its end
	over     bool          // disarmed
	done     chan struct{} // closed when the watching read has returned; nil until it starts
}

// slow is the notice that the request is slow.
func (w *connWatch) slow() { w.note(&w.isSlow) }

// bodyEnded is called when the request's body has been read to its end.
func (w *connWatch) bodyEnded() { w.note(&w.bodyRead) }

// note sets one of the two conditions of the watch and starts it once
// both hold, unless it is over or started already.
func (w *connWatch) note(cond *bool) {
	w.mu.Lock()
	defer w.mu.Unlock()
	*cond = true
	if w.isSlow && w.bodyRead && !w.over && w.done == nil {
		w.done = make(chan struct{})
		go w.watch(w.done)
	}
}

// watch reads the connection until the client sends a byte or goes away.
func (w *connWatch) watch(done chan struct{}) {
	defer close(done)
	// The CRLF a client may send after a POST's body is not its next
	// request, and is skipped here as the connection would skip it.
	if w.c.skipCRLF(false) {
		if _, err := w.c.br.Peek(1); err == nil {
			return
		}
	}
	w.mu.Lock()
	disarmed := w.over
	w.mu.Unlock()
	if !disarmed {
		w.cancel() // the client went away
	}
}

// disarm ends the watch. When it returns, nothing but the connection's
// own goroutine reads the connection.
func (w *connWatch) disarm() {
	w.mu.Lock()
	done := w.done
	w.over = true
	w.mu.Unlock()
	if done == nil {
		return
	}
	// The read returns at once with a timeout, which the read buffer hands
	// to the watch and then forgets.
	_ = w.c.rwc.SetReadDeadline(time.Unix(1, 0)) // long past
	<-done
	_ = w.c.rwc.SetReadDeadline(time.Time{})
}

// watchedBody is a request's body that notes its end: the connection is
// watched only once nothing else reads it.
type watchedBody struct {
	io.ReadCloser
	onEOF  func()
	eof    bool
	length int64 // the declared Content-Length, or -1
	read   int64
}

func (b *watchedBody) Read(p []byte) (int, error) {
	n, err := b.ReadCloser.Read(p)
	b.read += int64(n)
	if err == io.EOF && !b.eof {
		b.eof = true
		b.onEOF()
	}
	return n, err
}

// maxDrain bounds what is read of a body its handler left unread, so that
// the connection can carry the next request; past it the connection
// closes.
const maxDrain = 256 << 10

// drainWithin is how long a body its handler left unread is waited for.
const drainWithin = 5 * time.Second

// drain reads what the handler left of the body from c, within
// drainWithin, and reports whether it reached the end. A body of a known
// length with more than maxDrain left is not read at all: a client that
// declares a long body and never sends it (the guard refuses such a
// request unread) holds nothing.
func (b *watchedBody) drain(c *httpConn) bool {
	if b.length >= 0 && b.length-b.read > maxDrain {
		return false
	}
	_ = c.rwc.SetReadDeadline(time.Now().Add(drainWithin))
	defer func() { _ = c.rwc.SetReadDeadline(time.Time{}) }()
	_, err := io.CopyN(io.Discard, b, maxDrain)
	return errors.Is(err, io.EOF) && b.eof
}

// continueReader sends "100 Continue" before the first read of a body
// its client holds back until it is asked for.
type continueReader struct {
	io.ReadCloser
	w    *httpResponse
	sent bool
}

func (r *continueReader) Read(p []byte) (int, error) {
	if !r.sent {
		r.sent = true
		if r.w.committed {
			// The answer went out first: the client may never send the
			// body, so the connection ends with this request.
			r.w.closeAfter = true
			return 0, io.EOF
		}
		c := r.w.c
		if _, err := c.bw.WriteString("HTTP/1.1 100 Continue\r\n\r\n"); err != nil {
			return 0, err
		}
		if err := c.bw.Flush(); err != nil {
			return 0, err
		}
	}
	return r.ReadCloser.Read(p)
}
