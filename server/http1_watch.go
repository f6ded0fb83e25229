package server

import (
	"context"
	"errors"
	"io"
	"sync"
	"time"
)

// connWatch cancels a request whose client goes away while it is served.
// Once the request's body has been read, and the request has been served
// for the server's watchAfter, a goroutine waits to read the connection:
// an end of it (EOF, a reset) cancels the request's context; bytes (the
// client's next request, sent early) end the watch and wait in the read
// buffer. disarm stops it before the connection reads on.
type connWatch struct {
	c      *httpConn
	cancel context.CancelFunc

	mu    sync.Mutex
	state watchState
	timer *time.Timer
	done  chan struct{} // closed when the watching read has returned
}

type watchState int

const (
	watchIdle     watchState = iota // the body is still being read
	watchArmed                      // waiting out watchAfter
	watchWatching                   // a goroutine reads the connection
	watchOver                       // disarmed
)

// arm starts the clock; the connection is watched once it runs out.
func (w *connWatch) arm() {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.state != watchIdle {
		return
	}
	w.state = watchArmed
	w.timer = time.AfterFunc(w.c.s.watchAfter, w.watch)
}

// watch reads the connection until the client sends a byte or goes away.
// It runs on the timer's goroutine.
func (w *connWatch) watch() {
	w.mu.Lock()
	if w.state != watchArmed {
		w.mu.Unlock()
		return
	}
	w.state = watchWatching
	done := make(chan struct{})
	w.done = done
	w.mu.Unlock()
	defer close(done)
	_, err := w.c.br.Peek(1)
	if err == nil {
		return
	}
	w.mu.Lock()
	disarmed := w.state == watchOver
	w.mu.Unlock()
	if !disarmed {
		w.cancel() // the client went away
	}
}

// disarm ends the watch. When it returns, nothing but the connection's
// own goroutine reads the connection.
func (w *connWatch) disarm() {
	w.mu.Lock()
	state, done := w.state, w.done
	w.state = watchOver
	w.mu.Unlock()
	switch state {
	case watchArmed:
		w.timer.Stop() // a watch that fires now finds it over
	case watchWatching:
		// The read returns at once with a timeout, which the read buffer
		// hands to the watch and then forgets.
		_ = w.c.rwc.SetReadDeadline(time.Unix(1, 0)) // long past
		<-done
		_ = w.c.rwc.SetReadDeadline(time.Time{})
	}
}

// watchedBody is a request's body that notes its end: the connection is
// watched only once nothing else reads it.
type watchedBody struct {
	io.ReadCloser
	onEOF func()
	eof   bool
}

func (b *watchedBody) Read(p []byte) (int, error) {
	n, err := b.ReadCloser.Read(p)
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

// drain reads what the handler left of the body, and reports whether it
// reached the end.
func (b *watchedBody) drain() bool {
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
