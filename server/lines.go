package server

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"sync"

	"github.com/mark3labs/mcp-go/mcp"
)

// lineConn serves MCP on one line-delimited connection (stdio, or one
// relay on the local socket) in its own session. It is written here rather
// than taken from mcp-go's stdio transport for three reasons that a client
// can see:
//   - initialize is answered before the next message is read, so a call
//     that arrives in the same write as initialize already carries the
//     client's name (mcp-go serves them concurrently, and the call won);
//   - a request cancelled with notifications/cancelled gets no response,
//     as the specification says (mcp-go answers it anyway);
//   - each connection has its own session (mcp-go has one per process).
type lineConn struct {
	s     *Server
	sess  *lineSession
	limit int // most requests in flight at once

	outMu sync.Mutex
	out   io.Writer

	mu       sync.Mutex
	inflight map[string]*inflight // by raw request id
	wg       sync.WaitGroup
}

// inflight is one request being served.
type inflight struct {
	cancel    context.CancelFunc
	cancelled bool // by the client: its response is dropped
}

// serveLines serves one connection until in ends or ctx ends; either way
// the context of every request in flight ends, and serveLines returns once
// they have. It returns nil at the end of input and ctx's error otherwise.
func (s *Server) serveLines(ctx context.Context, sessionID string, in io.Reader, out io.Writer) error {
	c := &lineConn{s: s, sess: newLineSession(sessionID), out: out, inflight: map[string]*inflight{}}
	c.limit = maxInFlight
	if err := s.mcp.RegisterSession(ctx, c.sess); err != nil {
		return fmt.Errorf("session %s: %w", sessionID, err)
	}
	defer s.mcp.UnregisterSession(context.WithoutCancel(ctx), sessionID)
	base := s.mcp.WithContext(ctx, c.sess)
	reqs, endRequests := context.WithCancel(base)
	defer c.wg.Wait()
	defer endRequests()
	c.wg.Go(func() { c.writeNotes(reqs) })

	lines := readLines(reqs, in, s.log)
	for {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case line, ok := <-lines:
			if !ok {
				return nil
			}
			c.handle(base, reqs, line)
		}
	}
}

// maxInFlight bounds the requests one connection has in flight, as
// mcp-go's stdio transport bounded its queue. Calls past the queue's own
// limits are refused by the queue at once, with a retryable tool error, so
// this bound only stops a client that floods the connection with requests
// it never lets finish.
const maxInFlight = 10000

// handle routes one message. Only initialize is served on the reading
// goroutine; every other request runs on its own, because a call may wait
// for an operator while others go on.
func (c *lineConn) handle(base, reqs context.Context, line []byte) {
	if line == nil {
		c.write(jsonRPCError(nil, mcp.INVALID_REQUEST, fmt.Sprintf("the message is longer than %d bytes", maxLine)))
		return
	}
	m := parseMessage(line)
	switch m.kind {
	case kindBlank, kindResponse: // assent sends no requests to answer
	case kindInvalid:
		c.write(m.errorResponse())
	case kindNotification:
		if m.method == string(mcp.MethodNotificationCancelled) {
			c.cancel(m.cancels)
			return
		}
		_ = c.s.mcp.HandleMessage(base, line)
	case kindRequest:
		if m.method == string(mcp.MethodInitialize) {
			c.writeMessage(c.s.mcp.HandleMessage(reqs, line))
			return
		}
		c.start(reqs, m.id, line)
	}
}

// start serves a request on its own goroutine.
func (c *lineConn) start(reqs context.Context, id json.RawMessage, line []byte) {
	key := string(id)
	c.mu.Lock()
	switch {
	case c.inflight[key] != nil:
		c.mu.Unlock()
		c.write(jsonRPCError(id, mcp.INVALID_REQUEST, "request id "+key+" is already in use by a request in flight"))
		return
	case len(c.inflight) >= c.limit:
		c.mu.Unlock()
		c.write(jsonRPCError(id, mcp.INTERNAL_ERROR, fmt.Sprintf(
			"too many requests in flight on this connection (%d); retry when some are answered", c.limit)))
		return
	}
	ctx, cancel := context.WithCancel(reqs)
	f := &inflight{cancel: cancel}
	c.inflight[key] = f
	c.mu.Unlock()
	c.wg.Go(func() {
		defer cancel()
		resp := c.s.mcp.HandleMessage(ctx, line)
		c.mu.Lock()
		delete(c.inflight, key)
		drop := f.cancelled
		c.mu.Unlock()
		if !drop {
			c.writeMessage(resp)
		}
	})
}

// cancel ends the request with the id, if it is in flight, and marks its
// response to be dropped. A cancellation for a request already answered,
// or never made, changes nothing (the specification allows both races).
func (c *lineConn) cancel(id json.RawMessage) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if f := c.inflight[string(id)]; f != nil {
		f.cancelled = true
		f.cancel()
	}
}

// writeNotes writes the session's notifications until ctx ends.
func (c *lineConn) writeNotes(ctx context.Context) {
	for {
		select {
		case n := <-c.sess.notes:
			c.writeMessage(n)
		case <-ctx.Done():
			return
		}
	}
}

func (c *lineConn) writeMessage(msg mcp.JSONRPCMessage) {
	if msg == nil {
		return
	}
	data, err := json.Marshal(msg)
	if err != nil {
		c.s.log.Error("encoding a message for the client", "err", err)
		return
	}
	c.write(data)
}

// write sends one message, a line at a time.
func (c *lineConn) write(data []byte) {
	c.outMu.Lock()
	defer c.outMu.Unlock()
	if _, err := c.out.Write(append(data, '\n')); err != nil {
		c.s.log.Debug("writing to the client", "session", c.sess.id, "err", err)
	}
}
