package main

import (
	"net"
	"sync"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
)

// closeWait bounds how long closing waits for the console to end the
// session after democall has said it is done.
const closeWait = 2 * time.Second

// session is an MCP client over a console's socket, closed in the order
// that ends it quietly. mcp-go's transport reads in a goroutine of its own
// and logs any read error but end of input, and its Close closes what it
// writes to first: given the socket as both, it cut the read short and
// logged "Error reading from stdout … use of closed network connection".
// So Close only half-closes the socket, the console answers that by
// ending the session, the reader sees end of input, and then the socket
// is closed.
type session struct {
	*client.Client
	conn *net.UnixConn
	read *endedReader
}

func newSession(conn *net.UnixConn) *session {
	r := &endedReader{conn: conn, ended: make(chan struct{})}
	return &session{Client: client.NewClient(transport.NewIO(r, halfCloser{conn}, nil)), conn: conn, read: r}
}

// Close ends the session: the transport half-closes the socket, and once
// the console has ended its side (or closeWait has passed) the socket
// closes.
func (s *session) Close() error {
	err := s.Client.Close()
	select {
	case <-s.read.ended:
	case <-time.After(closeWait):
	}
	if cerr := s.conn.Close(); err == nil {
		err = cerr
	}
	return err
}

// halfCloser is the socket as the transport writes to it: closing it
// closes only the writing half, which the console reads as end of input.
type halfCloser struct{ conn *net.UnixConn }

func (h halfCloser) Write(p []byte) (int, error) { return h.conn.Write(p) }
func (h halfCloser) Close() error                { return h.conn.CloseWrite() }

// endedReader is the socket as the transport reads it, saying when a read
// has failed: the transport's reader has then stopped.
type endedReader struct {
	conn  *net.UnixConn
	once  sync.Once
	ended chan struct{}
}

func (r *endedReader) Read(p []byte) (int, error) {
	n, err := r.conn.Read(p)
	if err != nil {
		r.once.Do(func() { close(r.ended) })
	}
	return n, err
}
