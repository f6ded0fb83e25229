package server

import (
	"bytes"
	"errors"
	"io"
	"time"
)

// A line connection reads with leaders and followers. One goroutine at a
// time has the turn to read. It serves each request it reads itself, so a
// call goes from the read to the answer on one goroutine; and the turn
// passes to another goroutine, so that a call that waits (for an operator,
// or for a long program) holds only its own.
//
// When more input already waits, the turn is handed on before the request
// is served: a burst of calls runs at once. When none does, the serving
// goroutine holds the turn, and it passes on only when another goroutine
// finishes serving (it takes the turn over, already awake) or when the
// call has been served for handOnAfter. On a machine where waking another
// goroutine's thread costs a tenth of a spawn, this saves it for the
// common lone call; a request that arrives while a lone call is served
// waits at most handOnAfter to be read.
//
// Having answered, a goroutine waits as a follower for the turn again,
// keeping the stack it grew, or ends when enough followers wait already.

// handOnAfter is how long a lone call may be served while nothing is read
// (Server.handOnAfter, which tests may lengthen).
const handOnAfter = 5 * time.Millisecond

// maxFollowers bounds the goroutines a connection keeps waiting for the
// turn to read once their requests are answered.
const maxFollowers = 32

// lead reads and routes messages while this goroutine has the turn.
func (c *lineConn) lead() {
	for {
		select {
		case <-c.quit:
			return // the connection ended: read nothing more
		default:
		}
		line, err := c.next()
		if err != nil {
			if !errors.Is(err, io.EOF) {
				c.s.log.Debug("reading from the client", "session", c.sess.id, "err", err)
			}
			close(c.ended)
			return
		}
		select {
		case <-c.quit:
			return // read after the connection ended: dropped
		default:
		}
		f, m := c.handle(line)
		if f == nil {
			continue
		}
		if c.inputWaits() {
			c.handOn()
			c.serve(f, m, line)
		} else {
			c.hold()
			c.serve(f, m, line)
			if c.takeHeld() {
				continue // nobody took the turn meanwhile: read on
			}
		}
		if !c.follow() {
			return
		}
	}
}

// next returns the next message that is not blank; a line past maxLine is
// returned as nil, to be refused.
func (c *lineConn) next() ([]byte, error) {
	for {
		line, err := readLine(c.in)
		switch {
		case errors.Is(err, errLineTooLong):
			return nil, nil
		case err != nil:
			return nil, err
		case len(bytes.TrimSpace(line)) > 0:
			return line, nil
		}
	}
}

// inputWaits reports whether more input is there to read now, or may be.
func (c *lineConn) inputWaits() bool {
	return c.in.Buffered() > 0 || c.waiting == nil || c.waiting()
}

// hold keeps the turn while its goroutine serves, until it is taken.
func (c *lineConn) hold() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.held = true
	c.heldTimer = time.AfterFunc(c.s.handOnAfter, c.passHeld)
}

// takeHeld takes the held turn, if it is still held, for the goroutine
// that calls it.
func (c *lineConn) takeHeld() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	if !c.held {
		return false
	}
	c.held = false
	c.heldTimer.Stop()
	return true
}

// passHeld hands a turn held for handOnAfter to another goroutine.
func (c *lineConn) passHeld() {
	if c.takeHeld() {
		c.handOn()
	}
}

// handOn gives the turn to an idle follower, or to a new goroutine when
// none waits.
func (c *lineConn) handOn() {
	c.mu.Lock()
	if c.stopped {
		c.mu.Unlock()
		return
	}
	if c.idle == 0 {
		c.mu.Unlock()
		go c.lead()
		return
	}
	c.idle--
	c.mu.Unlock()
	select {
	case c.turn <- struct{}{}:
	case <-c.quit:
	}
}

// follow takes over a held turn, or waits for the turn; it reports false
// when the goroutine should end instead: enough followers wait, or the
// connection ended.
func (c *lineConn) follow() bool {
	if c.takeHeld() {
		return true
	}
	c.mu.Lock()
	if c.stopped || c.idle >= maxFollowers {
		c.mu.Unlock()
		return false
	}
	c.idle++
	c.mu.Unlock()
	select {
	case <-c.turn:
		return true
	case <-c.quit:
		return false
	}
}

// writeNotes writes the session's notifications until the connection's
// requests end.
func (c *lineConn) writeNotes() {
	for {
		select {
		case n := <-c.sess.notes:
			c.writeMessage(n)
		case <-c.reqs.Done():
			return
		}
	}
}
