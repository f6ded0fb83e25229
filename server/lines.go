package server

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"sync"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
)

// lineConn serves MCP on one line-delimited connection (stdio, or one
// relay on the local socket) in its own session. It is written here rather
// than taken from mcp-go's stdio transport for reasons a client can see:
//   - initialize is answered before the next message is read, so a call
//     that arrives in the same write as initialize already carries the
//     client's name (mcp-go serves them concurrently, and the call won);
//   - a request cancelled with notifications/cancelled gets no response,
//     as the specification says (mcp-go answers it anyway);
//   - each connection has its own session (mcp-go has one per process);
//   - a request is served on the goroutine that read it (see lead), with
//     no handoff between reading, serving and answering.
type lineConn struct {
	s    *Server
	sess *lineSession
	// base carries the session; reqs, below it, every request's context.
	base, reqs context.Context
	in         *bufio.Reader
	// waiting reports whether input waits unread in the kernel; nil when
	// that cannot be known.
	waiting func() bool

	outMu sync.Mutex
	out   io.Writer

	mu        sync.Mutex
	inflight  map[string]*inflight // by raw request id
	idle      int                  // followers waiting for the turn to read
	held      bool                 // a serving goroutine holds the turn (see lead)
	heldTimer *time.Timer          // passes a held turn on
	stopped   bool                 // serveLines is returning: serve nothing new
	serving   sync.WaitGroup       // requests being served, and the notes writer

	turn  chan struct{} // hands the turn to read to an idle follower
	ended chan struct{} // closed by the leader that met the end of input
	quit  chan struct{} // closed when serveLines returns
}

// inflight is one request being served.
type inflight struct {
	ctx       context.Context
	cancel    context.CancelFunc
	cancelled bool // by the client: its response is dropped
}

// serveLines serves one connection until in ends or ctx ends; either way
// the context of every request in flight ends, and serveLines returns once
// they have. It returns nil at the end of input and ctx's error otherwise.
// A Read already blocked on in returns only when in is closed (for stdin,
// the process exits first); what it reads then is dropped.
func (s *Server) serveLines(ctx context.Context, sessionID string, in io.Reader, out io.Writer) error {
	c := &lineConn{s: s, sess: newLineSession(sessionID, s.registered), in: bufio.NewReaderSize(in, 64<<10),
		out: out, inflight: map[string]*inflight{},
		waiting: waitingIn(in), turn: make(chan struct{}), ended: make(chan struct{}), quit: make(chan struct{})}
	if err := s.mcp.RegisterSession(ctx, c.sess); err != nil {
		return fmt.Errorf("session %s: %w", sessionID, err)
	}
	defer s.mcp.UnregisterSession(context.WithoutCancel(ctx), sessionID)
	c.base = s.mcp.WithContext(ctx, c.sess)
	var endRequests context.CancelFunc
	c.reqs, endRequests = context.WithCancel(c.base)
	defer c.stop(endRequests)
	c.serving.Go(c.writeNotes)
	go c.lead()
	select {
	case <-c.ended:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// stop ends every request in flight and waits until they are answered.
func (c *lineConn) stop(endRequests context.CancelFunc) {
	c.mu.Lock()
	c.stopped = true
	c.mu.Unlock()
	close(c.quit)
	endRequests()
	c.serving.Wait()
}

// maxInFlight bounds the requests one connection has in flight, as
// mcp-go's stdio transport bounded its queue. Calls past the queue's own
// limits are refused by the queue at once, with a retryable tool error, so
// this bound only stops a client that floods the connection with requests
// it never lets finish.
const maxInFlight = 10000

// handle routes one message on the reading goroutine and returns the
// request it registered, if the message is one to serve while reading goes
// on; every other message is answered here, before the next is read.
// Initialize is among them; every other request may wait for an operator.
func (c *lineConn) handle(line []byte) (*inflight, message) {
	if line == nil {
		c.write(jsonRPCError(nil, mcp.INVALID_REQUEST, fmt.Sprintf("the message is longer than %d bytes", maxLine)))
		return nil, message{}
	}
	m := parseMessage(line)
	switch m.kind {
	case kindBlank, kindResponse: // assent sends no requests to answer
	case kindInvalid:
		c.write(m.errorResponse())
	case kindNotification:
		if m.method == string(mcp.MethodNotificationCancelled) {
			c.cancel(m.cancels)
			break
		}
		_ = c.s.mcp.HandleMessage(c.base, line)
	case kindRequest:
		if m.method == string(mcp.MethodInitialize) {
			c.writeMessage(c.s.mcp.HandleMessage(c.reqs, line))
			break
		}
		return c.register(m), m
	}
	return nil, m
}

// register records a request as in flight, or answers it at once when its
// id is taken or the connection has too many; it returns nil then.
func (c *lineConn) register(m message) *inflight {
	key := string(m.id)
	c.mu.Lock()
	defer c.mu.Unlock()
	switch {
	case c.stopped:
		return nil // the connection is ending; nobody reads the answer
	case c.inflight[key] != nil:
		c.write(jsonRPCError(m.id, mcp.INVALID_REQUEST, "request id "+key+" is already in use by a request in flight"))
		return nil
	case len(c.inflight) >= maxInFlight:
		c.write(jsonRPCError(m.id, mcp.INTERNAL_ERROR, fmt.Sprintf(
			"too many requests in flight on this connection (%d); retry when some are answered", maxInFlight)))
		return nil
	}
	ctx, cancel := context.WithCancel(c.reqs)
	f := &inflight{ctx: ctx, cancel: cancel}
	c.inflight[key] = f
	c.serving.Add(1)
	return f
}

// serve answers a registered request, unless its client cancelled it.
func (c *lineConn) serve(f *inflight, m message, line []byte) {
	defer c.serving.Done()
	defer f.cancel()
	resp, ok := c.s.callTool(f.ctx, m, true)
	if !ok {
		resp, ok = c.s.listTools(m)
	}
	if !ok {
		resp = c.encode(c.s.MCP().HandleMessage(f.ctx, line))
	}
	c.mu.Lock()
	delete(c.inflight, string(m.id))
	drop := f.cancelled
	c.mu.Unlock()
	if !drop && resp != nil {
		c.write(resp)
	}
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

// encode is a message from mcp-go as a line; nil for none.
func (c *lineConn) encode(msg mcp.JSONRPCMessage) []byte {
	if msg == nil {
		return nil
	}
	data, err := json.Marshal(msg)
	if err != nil {
		c.s.log.Error("encoding a message for the client", "err", err)
		return nil
	}
	return data
}

func (c *lineConn) writeMessage(msg mcp.JSONRPCMessage) {
	if data := c.encode(msg); data != nil {
		c.write(data)
	}
}

// write sends one message, a line at a time.
func (c *lineConn) write(data []byte) {
	c.outMu.Lock()
	defer c.outMu.Unlock()
	if _, err := c.out.Write(append(data, '\n')); err != nil {
		c.s.log.Debug("writing to the client", "session", c.sess.id, "err", err)
	}
}
