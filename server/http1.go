package server

import (
	"context"
	"errors"
	"log/slog"
	"net"
	"net/http"
	"sync"
	"time"
)

// httpServer serves HTTP/1.1 for the MCP endpoint. Each request is served
// on its connection's goroutine, from the read of its header to the last
// byte of its answer, and nothing reads the connection meanwhile until the
// request turns out slow (its call waits for an operator, its run lasts
// watchAfter, its answer is streamed: see connWatch); only then does a
// second goroutine wait on the connection, to cancel the request when its
// client goes away.
//
// net/http, which served the endpoint before, starts that second read as
// soon as the body is read, for every request, and so hands every call
// from one goroutine to another and back: on a 2-core machine that cost a
// call about a tenth of a spawn (bench/load: assent over HTTP 1.22× bare
// exec with net/http, 1.13× with a connection loop that serves on its own
// goroutine, same rounds). A short call costs one goroutine; a long one is
// still watched.
//
// It is no general server. Requests are parsed by net/http's own
// http.ReadRequest and served by an http.Handler (the guard, conduct and
// mcp-go), but it does only what the endpoint needs: HTTP/1.0 and 1.1,
// keep-alive, bodies of a length or chunked, Expect: 100-continue, answers
// of a length or streamed (http.Flusher, for event streams) and write
// deadlines (http.ResponseController). No TLS, no HTTP/2, no upgrades.
type httpServer struct {
	handler http.Handler
	log     *slog.Logger
	// base is every request's context; cancelling it ends them all.
	base context.Context
	// readHeaderTimeout bounds the read of a request's header, from its
	// first byte; idleTimeout the wait for the next request.
	readHeaderTimeout time.Duration
	idleTimeout       time.Duration
	// maxHeaderBytes bounds a request line and header together.
	maxHeaderBytes int
	// watchAfter is how long a request's run lasts before the request is
	// slow, and its connection watched for the client going away (the
	// After of its exec.Slow).
	watchAfter time.Duration

	mu      sync.Mutex
	ln      net.Listener
	conns   map[*httpConn]bool // each live connection: true while it waits between requests
	closing bool
	drained chan struct{} // closed once closing and no connection is left
}

// Serve accepts connections on ln until Shutdown or Close, and serves
// each on a goroutine of its own. It returns http.ErrServerClosed after those,
// and any other error Accept gives that retrying cannot cure.
func (s *httpServer) Serve(ln net.Listener) error {
	s.mu.Lock()
	if s.closing {
		s.mu.Unlock()
		ln.Close()
		return http.ErrServerClosed
	}
	s.ln = ln
	if s.conns == nil {
		s.conns = make(map[*httpConn]bool)
	}
	s.mu.Unlock()
	var backoff time.Duration
	for {
		rwc, err := ln.Accept()
		if err != nil {
			if s.isClosing() {
				return http.ErrServerClosed
			}
			// Out of descriptors, say: wait and try again, as net/http
			// does, rather than stop serving.
			var ne net.Error
			if errors.As(err, &ne) && ne.Timeout() || isTemporary(err) {
				backoff = min(max(2*backoff, 5*time.Millisecond), time.Second)
				s.log.Warn("accepting an HTTP connection failed; retrying", "err", err, "in", backoff)
				time.Sleep(backoff)
				continue
			}
			return err
		}
		backoff = 0
		c := newHTTPConn(s, rwc)
		if !s.setIdle(c, false) {
			rwc.Close()
			return http.ErrServerClosed
		}
		go c.serve()
	}
}

// isTemporary reports whether an Accept error may pass by itself.
func isTemporary(err error) bool {
	t, ok := err.(interface{ Temporary() bool })
	return ok && t.Temporary()
}

func (s *httpServer) isClosing() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.closing
}

// untrack forgets a connection that has ended.
func (s *httpServer) untrack(c *httpConn) {
	s.mu.Lock()
	defer s.mu.Unlock()
	delete(s.conns, c)
	if s.closing && len(s.conns) == 0 && s.drained != nil {
		close(s.drained)
		s.drained = nil
	}
}

// setIdle marks c, new or known, as waiting between requests or as
// serving one. It reports false when the server is closing: a new
// connection is not served then, an idle one is closed, and one that has
// just read a request's header serves nothing.
func (s *httpServer) setIdle(c *httpConn, idle bool) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closing {
		return false
	}
	s.conns[c] = idle
	return true
}

// Shutdown stops accepting, closes the connections waiting between
// requests, and waits until those serving one have answered it and closed,
// or ctx ends (it then returns ctx's error; Close ends the rest).
func (s *httpServer) Shutdown(ctx context.Context) error {
	s.mu.Lock()
	s.closing = true
	if s.ln != nil {
		s.ln.Close()
		s.ln = nil // a Close after Shutdown has no listener to close again
	}
	for c, idle := range s.conns {
		if idle {
			c.rwc.Close()
		}
	}
	var drained chan struct{}
	if len(s.conns) > 0 {
		if s.drained == nil {
			s.drained = make(chan struct{})
		}
		drained = s.drained
	}
	s.mu.Unlock()
	if drained == nil {
		return nil
	}
	select {
	case <-drained:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// Close stops accepting and closes every connection at once.
func (s *httpServer) Close() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.closing = true
	var err error
	if s.ln != nil {
		err = s.ln.Close()
	}
	for c := range s.conns {
		c.rwc.Close()
	}
	return err
}
