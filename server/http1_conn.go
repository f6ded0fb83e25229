package server

import (
	"bufio"
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"runtime/debug"
	"strings"
	"time"

	"github.com/assent-sh/assent/exec"
)

// httpConn is one client connection of an httpServer.
type httpConn struct {
	s   *httpServer
	rwc net.Conn
	in  *limitedReader // rwc, limited while a header is read
	br  *bufio.Reader
	bw  *bufio.Writer
	// ctx is the server's base context with the connection's local
	// address, as net/http gives it (mcp-go's Host check reads it).
	ctx    context.Context
	remote string
	// served counts the requests read. crlf is how many CR and LF bytes may
	// still be skipped before the next request line: after a POST, whose
	// body some clients end with a CRLF of their own, up to four (RFC 9112
	// §2.2); read by whoever reads the connection.
	served int
	crlf   int
}

// readBufSize is the size of a connection's read buffer, which a header
// may fill beyond maxHeaderBytes as it is read.
const readBufSize = 4 << 10

func newHTTPConn(s *httpServer, rwc net.Conn) *httpConn {
	c := &httpConn{s: s, rwc: rwc, in: &limitedReader{r: rwc, left: -1}, remote: rwc.RemoteAddr().String()}
	c.br = bufio.NewReaderSize(c.in, readBufSize)
	c.bw = bufio.NewWriterSize(rwc, 4<<10)
	c.ctx = context.WithValue(s.base, http.LocalAddrContextKey, rwc.LocalAddr())
	return c
}

// serve serves the connection's requests in turn until it closes, a
// request asks it to, or the server closes.
func (c *httpConn) serve() {
	defer func() {
		if v := recover(); v != nil && v != http.ErrAbortHandler {
			c.s.log.Error("panic serving an HTTP request", "remote", c.remote, "panic", v, "stack", string(debug.Stack()))
		}
		c.rwc.Close()
		c.s.untrack(c)
	}()
	for c.awaitRequest() {
		req, status, err := c.readRequest()
		if err != nil {
			if status != 0 {
				c.refuse(status, err.Error())
			}
			return
		}
		// Busy only once a whole header is read: Shutdown closes a
		// connection still waiting for one, as net/http does.
		if !c.s.setIdle(c, false) {
			return
		}
		c.served++
		c.crlf = 0
		if req.Method == http.MethodPost {
			c.crlf = 4
		}
		if !c.serveRequest(req) {
			return
		}
	}
}

// awaitRequest waits, idle, for the first byte of the next request, and
// reports whether one came while the server is open. A new connection's
// first request must begin within the header timeout, as net/http has it;
// the idle timeout is for the wait between requests.
func (c *httpConn) awaitRequest() bool {
	// Idle until a whole header is read, whatever is buffered: Shutdown
	// closes a connection whose next header is not complete.
	if !c.s.setIdle(c, true) {
		return false
	}
	c.skipCRLF(true)
	if c.br.Buffered() == 0 {
		d := c.s.idleTimeout
		if c.served == 0 && c.s.readHeaderTimeout > 0 {
			d = c.s.readHeaderTimeout
		}
		if d > 0 {
			_ = c.rwc.SetReadDeadline(time.Now().Add(d))
		}
		if _, err := c.br.Peek(1); err != nil {
			return false
		}
	}
	return !c.s.isClosing()
}

// skipCRLF skips the CR and LF bytes a client may send after a POST's
// body, as many as c.crlf still allows; with buffered, only those already
// read, else waiting for each. It reports false when the read failed.
func (c *httpConn) skipCRLF(buffered bool) bool {
	for c.crlf > 0 {
		if buffered && c.br.Buffered() == 0 {
			return true
		}
		b, err := c.br.Peek(1)
		if err != nil {
			return false
		}
		if b[0] != '\r' && b[0] != '\n' {
			return true
		}
		_, _ = c.br.Discard(1)
		c.crlf--
	}
	return true
}

// readRequest reads a request's line and header, within the header
// timeout and size. On an error the status is what to answer it with, or
// 0 for none (the client went away or was too slow).
func (c *httpConn) readRequest() (*http.Request, int, error) {
	if d := c.s.readHeaderTimeout; d > 0 {
		_ = c.rwc.SetReadDeadline(time.Now().Add(d))
	}
	c.in.left = int64(c.s.maxHeaderBytes) + readBufSize
	c.skipCRLF(false) // a failed read fails ReadRequest too
	req, err := http.ReadRequest(c.br)
	tooLarge := c.in.left == 0
	c.in.left = -1
	var ne net.Error
	switch {
	case err == nil:
	case tooLarge:
		return nil, http.StatusRequestHeaderFieldsTooLarge, errors.New("the request's header is too large")
	case errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) || errors.As(err, &ne):
		return nil, 0, err
	case strings.Contains(err.Error(), "unsupported transfer encoding"):
		return nil, http.StatusNotImplemented, err
	default:
		return nil, http.StatusBadRequest, err
	}
	_ = c.rwc.SetReadDeadline(time.Time{})
	if req.ProtoMajor != 1 {
		return nil, http.StatusHTTPVersionNotSupported, errors.New("only HTTP/1.0 and HTTP/1.1 are served")
	}
	if req.ProtoAtLeast(1, 1) && req.Host == "" {
		return nil, http.StatusBadRequest, errors.New("missing required Host header")
	}
	for k := range req.Header {
		if !isToken(k) {
			return nil, http.StatusBadRequest, errors.New("invalid header name")
		}
	}
	return req, 0, nil
}

// serveRequest has the handler serve req and answers it; it reports
// whether the connection may carry another request.
func (c *httpConn) serveRequest(req *http.Request) bool {
	ctx, cancel := context.WithCancel(c.ctx)
	defer cancel()
	req.RemoteAddr = c.remote
	w := &httpResponse{c: c, req: req, header: make(http.Header)}
	if expect := req.Header.Get("Expect"); expect != "" {
		if !strings.EqualFold(expect, "100-continue") {
			c.refuse(http.StatusExpectationFailed, "unsupported Expect header: "+expect)
			return false
		}
		if req.ProtoAtLeast(1, 1) && req.ContentLength != 0 {
			req.Body = &continueReader{ReadCloser: req.Body, w: w}
		}
		req.Header.Del("Expect")
	}
	watch := &connWatch{c: c, cancel: cancel}
	w.slow = exec.NewSlow(c.s.watchAfter, watch.slow)
	req = req.WithContext(exec.WithSlow(ctx, w.slow))
	body := &watchedBody{ReadCloser: req.Body, onEOF: watch.bodyEnded, length: req.ContentLength}
	if req.Body == http.NoBody {
		watch.bodyEnded()
	} else {
		req.Body, w.reqBody = body, body
	}
	c.s.handler.ServeHTTP(w, req)
	keep := w.finish()
	watch.disarm()
	// A handler's write deadline ends with its request, as in net/http.
	_ = c.rwc.SetWriteDeadline(time.Time{})
	// The request's own body, not req.Body, which a handler may replace
	// (conduct puts back what it read).
	if w.reqBody != nil && !w.reqBody.eof {
		// Not drained as the answer went out (see commit): the client may
		// still be sending it.
		c.linger()
		return false
	}
	return keep
}

// refuse answers a request that is not served, and the connection closes.
func (c *httpConn) refuse(status int, msg string) {
	_ = c.rwc.SetWriteDeadline(time.Now().Add(time.Second))
	_, _ = c.bw.WriteString("HTTP/1.1 " + httpStatusLine(status) + "\r\nContent-Type: text/plain; charset=utf-8\r\nConnection: close\r\n\r\n" + msg + "\n")
	if c.bw.Flush() == nil {
		c.linger()
	}
}

// lingerFor is how long a connection closing on a request it did not read
// whole reads on what its client still sends.
const lingerFor = 500 * time.Millisecond

// linger ends the sending side of a connection that closes with a
// request not read whole, and reads what the client still sends for a
// moment, or until it closes too: closed with bytes unread, the connection
// would be reset, and the client, still sending, could lose the answer.
// net/http does the same (closeWriteAndWait).
func (c *httpConn) linger() {
	if cw, ok := c.rwc.(interface{ CloseWrite() error }); ok {
		_ = cw.CloseWrite()
	}
	_ = c.rwc.SetReadDeadline(time.Now().Add(lingerFor))
	_, _ = io.Copy(io.Discard, c.rwc)
}

// limitedReader reads from r, at most left bytes while left is not -1;
// then it reports EOF and left stays 0.
type limitedReader struct {
	r    io.Reader
	left int64
}

func (l *limitedReader) Read(p []byte) (int, error) {
	if l.left == 0 {
		return 0, io.EOF
	}
	if l.left > 0 && int64(len(p)) > l.left {
		p = p[:l.left]
	}
	n, err := l.r.Read(p)
	if l.left > 0 {
		l.left -= int64(n)
	}
	return n, err
}

// isToken reports whether s is an HTTP token (RFC 9110 §5.6.2), as a
// header name must be.
func isToken(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		b := s[i]
		switch {
		case 'a' <= b && b <= 'z', 'A' <= b && b <= 'Z', '0' <= b && b <= '9':
		case strings.IndexByte("!#$%&'*+-.^_`|~", b) >= 0:
		default:
			return false
		}
	}
	return true
}
