package server

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"syscall"
	"time"

	mcpserver "github.com/mark3labs/mcp-go/server"
)

// DefaultAddr is where Streamable HTTP listens: loopback, on a fixed port,
// so a client's saved configuration keeps working across restarts.
const DefaultAddr = "127.0.0.1:7323"

// EndpointPath is the MCP endpoint under the listen address.
const EndpointPath = "/mcp"

// minTokenLen is the shortest token accepted from an operator; generated
// tokens are far longer.
const minTokenLen = 16

// HTTPOptions configure the Streamable HTTP transport.
type HTTPOptions struct {
	// Addr is host:port to listen on; default DefaultAddr. A busy port is
	// an error, never a silent move to another port.
	Addr string
	// Token is the bearer token every request must carry; required.
	Token string
	// AllowRemote permits a listen address other than loopback. The token
	// is required either way.
	AllowRemote bool
	// MaxBody caps request bodies in bytes; default DefaultMaxBody.
	MaxBody int64
	// MaxSessions bounds the live 2025-11-25 (or older) sessions; default
	// DefaultMaxSessions. Past it the longest idle session ends.
	MaxSessions int
	// SessionIdle ends a session unused for this long; default
	// DefaultSessionIdle.
	SessionIdle time.Duration
}

// HTTP is a listening Streamable HTTP transport.
type HTTP struct {
	srv *httpServer
	ln  net.Listener
	mcp *mcpserver.StreamableHTTPServer
	url string
	// sessions are the live legacy sessions.
	sessions *sessions
	// endRequests cancels the context of every request, so that streams
	// that never end by themselves (a modern client's subscriptions/listen)
	// do not hold up shutdown.
	endRequests context.CancelFunc
}

// ListenHTTP binds the address and returns the transport, ready to Serve.
func (s *Server) ListenHTTP(o HTTPOptions) (*HTTP, error) {
	if o.Addr == "" {
		o.Addr = DefaultAddr
	}
	if o.MaxBody <= 0 {
		o.MaxBody = DefaultMaxBody
	}
	if o.MaxSessions <= 0 {
		o.MaxSessions = DefaultMaxSessions
	}
	if o.SessionIdle <= 0 {
		o.SessionIdle = DefaultSessionIdle
	}
	if err := CheckToken(o.Token); err != nil {
		return nil, err
	}
	host, _, err := net.SplitHostPort(o.Addr)
	if err != nil {
		return nil, fmt.Errorf("listen address %q: %w", o.Addr, err)
	}
	if !isLoopback(host) && !o.AllowRemote {
		return nil, fmt.Errorf("listen address %s is reachable from other machines; pass --allow-remote to listen there (the token is still required)", o.Addr)
	}
	ln, err := net.Listen("tcp", o.Addr)
	if err != nil {
		if errors.Is(err, syscall.EADDRINUSE) {
			return nil, fmt.Errorf("%s is already in use, by another assent or another program; stop it, or listen elsewhere with --listen (clients must then be told the new URL)", o.Addr)
		}
		return nil, fmt.Errorf("listen on %s: %w", o.Addr, err)
	}
	if !o.AllowRemote {
		if err := loopbackOnly(o.Addr, ln.Addr()); err != nil {
			ln.Close()
			return nil, err
		}
	}
	h := &HTTP{ln: ln, url: "http://" + ln.Addr().String() + EndpointPath}
	// mcp-go answers HTTP requests: it must hold the tools first.
	h.mcp = mcpserver.NewStreamableHTTPServer(s.MCP(),
		mcpserver.WithStreamableHTTPLogger(s.log.With("transport", "http")))
	c := &conduct{s: s, next: h.mcp, log: s.log, calls: map[string]*httpCall{}}
	c.sessions = newSessions(o.MaxSessions, o.SessionIdle, c.forget)
	h.sessions = c.sessions
	mux := http.NewServeMux()
	mux.Handle(EndpointPath, &guard{token: []byte(o.Token), allowRemote: o.AllowRemote, maxBody: o.MaxBody,
		log: s.log, next: c})
	base, cancel := context.WithCancel(context.Background())
	h.endRequests = cancel
	// No write timeout: a call may wait for a human for a long time.
	h.srv = &httpServer{
		handler:           mux,
		log:               s.log.With("transport", "http"),
		base:              base,
		readHeaderTimeout: 10 * time.Second,
		maxHeaderBytes:    64 << 10,
		idleTimeout:       2 * time.Minute,
		watchAfter:        s.handOnAfter,
	}
	return h, nil
}

// loopbackOnly refuses a listener that a name put on an address other
// machines can reach. "localhost" is accepted by its name, before it is
// resolved, and a resolver answers for it from /etc/hosts or, when that
// has no line for it, from DNS.
func loopbackOnly(asked string, bound net.Addr) error {
	if a, ok := bound.(*net.TCPAddr); ok && a.IP.IsLoopback() {
		return nil
	}
	return fmt.Errorf("listen address %s resolved to %s, which is reachable from other machines; pass --allow-remote to listen there (the token is still required)", asked, bound)
}

// URL is the endpoint clients connect to, http://host:port/mcp.
func (h *HTTP) URL() string { return h.url }

// Serve answers requests until Shutdown; it then returns nil.
func (h *HTTP) Serve() error {
	if err := h.srv.Serve(h.ln); !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}

// shutdownGrace is how long Shutdown lets requests finish by themselves
// before it ends the streams that would not.
const shutdownGrace = 250 * time.Millisecond

// Shutdown stops accepting requests and waits for those in flight until
// ctx ends. End the calls first (close the queue): a request whose call
// waits for an operator would otherwise hold shutdown until ctx ends.
func (h *HTTP) Shutdown(ctx context.Context) error {
	// Answers being written finish first: ending every request at once
	// cut the response of a call the queue had just answered. Streams
	// that never end by themselves (a legacy session's GET, a
	// subscriptions/listen) are ended after a short grace.
	grace := time.AfterFunc(shutdownGrace, func() {
		h.mcp.CloseSessions(ctx)
		h.endRequests()
	})
	err := h.srv.Shutdown(ctx)
	grace.Stop()
	_ = h.ln.Close() // in case Serve never ran; closing twice is harmless
	if errors.Is(err, context.DeadlineExceeded) || errors.Is(err, context.Canceled) {
		return errors.Join(err, h.srv.Close())
	}
	return err
}
