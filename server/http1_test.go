package server

import (
	"bufio"
	"context"
	"errors"
	"io"
	"log/slog"
	"net"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/assent-sh/assent/exec"
)

// wireHTTP is an httpServer on loopback serving h, with a client that
// writes requests by hand on one connection.
type wireHTTP struct {
	t    *testing.T
	srv  *httpServer
	addr string
	conn net.Conn
	br   *bufio.Reader
}

func newWireHTTP(t *testing.T, h http.Handler, change func(*httpServer)) *wireHTTP {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	base, cancel := context.WithCancel(context.Background())
	srv := &httpServer{handler: h, log: slog.New(slog.DiscardHandler), base: base,
		readHeaderTimeout: 5 * time.Second, idleTimeout: time.Minute, maxHeaderBytes: 8 << 10, watchAfter: time.Millisecond}
	if change != nil {
		change(srv)
	}
	served := make(chan error, 1)
	go func() { served <- srv.Serve(ln) }()
	r := &wireHTTP{t: t, srv: srv, addr: ln.Addr().String()}
	t.Cleanup(func() {
		cancel()
		srv.Close()
		if err := <-served; !errors.Is(err, http.ErrServerClosed) {
			t.Errorf("Serve returned %v", err)
		}
		// Close does not wait for the connections' goroutines.
		deadline := time.Now().Add(5 * time.Second)
		for {
			srv.mu.Lock()
			n := len(srv.conns)
			srv.mu.Unlock()
			if n == 0 || time.Now().After(deadline) {
				break
			}
			time.Sleep(5 * time.Millisecond)
		}
	})
	r.dial()
	return r
}

// dial opens the client's connection, closing any before it.
func (r *wireHTTP) dial() {
	r.t.Helper()
	if r.conn != nil {
		r.conn.Close()
	}
	c, err := net.Dial("tcp", r.addr)
	if err != nil {
		r.t.Fatal(err)
	}
	r.t.Cleanup(func() { c.Close() })
	r.conn, r.br = c, bufio.NewReader(c)
}

func (r *wireHTTP) send(s string) {
	r.t.Helper()
	if _, err := io.WriteString(r.conn, s); err != nil {
		r.t.Fatal(err)
	}
}

// answer reads one response and its whole body.
func (r *wireHTTP) answer(method string) (*http.Response, string) {
	r.t.Helper()
	_ = r.conn.SetReadDeadline(time.Now().Add(5 * time.Second))
	resp, err := http.ReadResponse(r.br, &http.Request{Method: method})
	if err != nil {
		r.t.Fatalf("reading a response: %v", err)
	}
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		r.t.Fatalf("reading a response's body: %v", err)
	}
	return resp, string(body)
}

// closed reports whether the server closed the connection (after what was
// read of it).
func (r *wireHTTP) closed() bool {
	_ = r.conn.SetReadDeadline(time.Now().Add(5 * time.Second))
	_, err := r.br.ReadByte()
	return errors.Is(err, io.EOF)
}

// echo answers with the method, path and body it got.
func echo(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	w.Header().Set("Content-Type", "text/plain")
	_, _ = io.WriteString(w, r.Method+" "+r.URL.Path+" "+string(body))
}

func TestHTTPServer_KeepAlive(t *testing.T) {
	r := newWireHTTP(t, http.HandlerFunc(echo), nil)
	for i, body := range []string{"one", "two, longer", ""} {
		r.send("POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: " + strconv.Itoa(len(body)) + "\r\n\r\n" + body)
		resp, got := r.answer("POST")
		if want := "POST /mcp " + body; resp.StatusCode != 200 || got != want {
			t.Fatalf("request %d: %d %q, want 200 %q", i, resp.StatusCode, got, want)
		}
		if resp.ContentLength != int64(len(got)) || resp.Close || resp.Header.Get("Date") == "" {
			t.Errorf("request %d: length %d, close %v, Date %q", i, resp.ContentLength, resp.Close, resp.Header.Get("Date"))
		}
	}
}

func TestHTTPServer_ChunkedRequestBody(t *testing.T) {
	r := newWireHTTP(t, http.HandlerFunc(echo), nil)
	r.send("POST /x HTTP/1.1\r\nHost: localhost\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n2\r\nde\r\n0\r\n\r\n")
	if _, got := r.answer("POST"); got != "POST /x abcde" {
		t.Fatalf("got %q", got)
	}
	r.send("GET /y HTTP/1.1\r\nHost: localhost\r\n\r\n")
	if _, got := r.answer("GET"); got != "GET /y " {
		t.Fatalf("the next request got %q", got)
	}
}

func TestHTTPServer_StreamsWhatIsFlushed(t *testing.T) {
	release := make(chan struct{})
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		_, _ = io.WriteString(w, "data: first\n\n")
		w.(http.Flusher).Flush()
		<-release
		_, _ = io.WriteString(w, "data: second\n\n")
	})
	r := newWireHTTP(t, h, nil)
	r.send("GET /mcp HTTP/1.1\r\nHost: localhost\r\n\r\n")
	_ = r.conn.SetReadDeadline(time.Now().Add(5 * time.Second))
	resp, err := http.ReadResponse(r.br, &http.Request{Method: "GET"})
	if err != nil {
		t.Fatal(err)
	}
	if len(resp.TransferEncoding) != 1 || resp.TransferEncoding[0] != "chunked" {
		t.Fatalf("transfer encoding %v, want chunked", resp.TransferEncoding)
	}
	first := make([]byte, len("data: first\n\n"))
	if _, err := io.ReadFull(resp.Body, first); err != nil || string(first) != "data: first\n\n" {
		t.Fatalf("before the handler returned: %q, %v", first, err)
	}
	close(release)
	rest, err := io.ReadAll(resp.Body)
	if err != nil || string(rest) != "data: second\n\n" {
		t.Fatalf("the rest: %q, %v", rest, err)
	}
	r.send("GET /next HTTP/1.1\r\nHost: localhost\r\n\r\n")
	if _, got := r.answer("GET"); got != "data: first\n\ndata: second\n\n" {
		t.Fatalf("the next request on the connection got %q", got)
	}
}

func TestHTTPServer_LongAnswerIsStreamed(t *testing.T) {
	long := strings.Repeat("x", maxBuffered+10)
	r := newWireHTTP(t, http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		_, _ = io.WriteString(w, long[:10])
		_, _ = io.WriteString(w, long[10:])
	}), nil)
	r.send("GET / HTTP/1.1\r\nHost: localhost\r\n\r\n")
	resp, got := r.answer("GET")
	if got != long || len(resp.TransferEncoding) == 0 {
		t.Fatalf("%d bytes, transfer encoding %v", len(got), resp.TransferEncoding)
	}
}

func TestHTTPServer_Refusals(t *testing.T) {
	tests := []struct {
		name, request string
		status        int
	}{
		{"header too large", "GET / HTTP/1.1\r\nHost: localhost\r\nX-Big: " + strings.Repeat("a", 20<<10) + "\r\n\r\n", 431},
		{"no Host", "GET / HTTP/1.1\r\n\r\n", 400},
		{"two Hosts", "GET / HTTP/1.1\r\nHost: localhost\r\nHost: evil.example\r\n\r\n", 400},
		{"header name with a space", "GET / HTTP/1.1\r\nHost: localhost\r\nX Y: z\r\n\r\n", 400},
		{"control character", "GET / HTTP/1.1\r\nHost: localhost\r\nX: a\x01b\r\n\r\n", 400},
		{"HTTP/2.0", "GET / HTTP/2.0\r\nHost: localhost\r\n\r\n", 505},
		{"garbage", "hello\r\n\r\n", 400},
		{"two lengths", "POST / HTTP/1.1\r\nHost: localhost\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\nab", 400},
		{"unknown transfer encoding", "POST / HTTP/1.1\r\nHost: localhost\r\nTransfer-Encoding: gzip, chunked\r\n\r\n", 501},
		{"unknown expectation", "POST / HTTP/1.1\r\nHost: localhost\r\nExpect: 200-ok\r\nContent-Length: 1\r\n\r\na", 417},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := newWireHTTP(t, http.HandlerFunc(echo), nil)
			r.send(tt.request)
			resp, _ := r.answer("GET")
			if resp.StatusCode != tt.status || !resp.Close {
				t.Errorf("status %d, close %v; want %d and close", resp.StatusCode, resp.Close, tt.status)
			}
			if !r.closed() {
				t.Error("the connection stayed open")
			}
		})
	}
}

func TestHTTPServer_ExpectContinue(t *testing.T) {
	r := newWireHTTP(t, http.HandlerFunc(echo), nil)
	r.send("POST /mcp HTTP/1.1\r\nHost: localhost\r\nExpect: 100-continue\r\nContent-Length: 5\r\n\r\n")
	_ = r.conn.SetReadDeadline(time.Now().Add(5 * time.Second))
	line, err := r.br.ReadString('\n')
	if err != nil || line != "HTTP/1.1 100 Continue\r\n" {
		t.Fatalf("before the body: %q, %v", line, err)
	}
	if blank, _ := r.br.ReadString('\n'); blank != "\r\n" {
		t.Fatalf("after 100 Continue: %q", blank)
	}
	r.send("hello")
	if resp, got := r.answer("POST"); resp.StatusCode != 200 || got != "POST /mcp hello" {
		t.Fatalf("%d %q", resp.StatusCode, got)
	}
}

func TestHTTPServer_HTTP10(t *testing.T) {
	r := newWireHTTP(t, http.HandlerFunc(echo), nil)
	r.send("GET /a HTTP/1.0\r\nConnection: keep-alive\r\n\r\n")
	resp, got := r.answer("GET")
	if got != "GET /a " || resp.Header.Get("Connection") != "keep-alive" {
		t.Fatalf("%q, Connection %q", got, resp.Header.Get("Connection"))
	}
	r.send("GET /b HTTP/1.0\r\n\r\n")
	if _, got := r.answer("GET"); got != "GET /b " {
		t.Fatalf("%q", got)
	}
	if !r.closed() {
		t.Error("an HTTP/1.0 request without keep-alive left the connection open")
	}
}

func TestHTTPServer_UnreadBody(t *testing.T) {
	ignore := http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { _, _ = io.WriteString(w, "no thanks") })
	t.Run("small: read for the next request", func(t *testing.T) {
		r := newWireHTTP(t, ignore, nil)
		r.send("POST / HTTP/1.1\r\nHost: localhost\r\nContent-Length: 3\r\n\r\nabc")
		if resp, _ := r.answer("POST"); resp.Close {
			t.Fatal("closed after a small unread body")
		}
		r.send("POST / HTTP/1.1\r\nHost: localhost\r\nContent-Length: 0\r\n\r\n")
		if _, got := r.answer("POST"); got != "no thanks" {
			t.Fatalf("%q", got)
		}
	})
	t.Run("large: answered, then closed", func(t *testing.T) {
		r := newWireHTTP(t, ignore, nil)
		size := 4 * maxDrain
		r.send("POST / HTTP/1.1\r\nHost: localhost\r\nContent-Length: " + strconv.Itoa(size) + "\r\n\r\n")
		sent := make(chan error, 1)
		go func() {
			_, err := r.conn.Write(make([]byte, size))
			sent <- err
		}()
		resp, got := r.answer("POST")
		if got != "no thanks" || !resp.Close {
			t.Fatalf("%q, close %v", got, resp.Close)
		}
		<-sent // written whole, or cut when the server closed: either is fine
	})
}

// leaveWhileServed sends req and closes the connection 20 ms later, while
// its handler, having read the body and done mark (if any), waits up to
// within for the request's context to end. It returns how that wait
// ended: context.Canceled, or nil when within passed first.
func leaveWhileServed(t *testing.T, req string, within time.Duration, mark func(http.ResponseWriter, *http.Request)) error {
	t.Helper()
	ended := make(chan error, 1)
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.ReadAll(r.Body)
		if mark != nil {
			mark(w, r)
		}
		select {
		case <-r.Context().Done():
			ended <- r.Context().Err()
		case <-time.After(within):
			ended <- nil
		}
	})
	r := newWireHTTP(t, h, nil)
	r.send(req)
	time.Sleep(20 * time.Millisecond)
	r.conn.Close()
	return <-ended
}

// giveSlow gives the request's slow notice, as a call that waits for an
// operator does.
func giveSlow(_ http.ResponseWriter, r *http.Request) { exec.SlowOf(r.Context()).Give() }

// smallPost is a POST with a two-byte body.
const smallPost = "POST / HTTP/1.1\r\nHost: localhost\r\nContent-Length: 2\r\n\r\n{}"

func TestHTTPServer_ClientGoneCancels(t *testing.T) {
	if err := leaveWhileServed(t, smallPost, 10*time.Second, giveSlow); !errors.Is(err, context.Canceled) {
		t.Fatalf("the handler ended with %v", err)
	}
}

func TestHTTPServer_WatchLeavesTheNextRequest(t *testing.T) {
	// A request served past watchAfter is watched; a client that sends its
	// next request meanwhile neither cancels the first nor loses the next.
	errs := make(chan error, 2)
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		exec.SlowOf(r.Context()).Give()
		time.Sleep(30 * time.Millisecond)
		errs <- r.Context().Err()
		_, _ = w.Write(body)
	})
	r := newWireHTTP(t, h, nil)
	r.send("POST / HTTP/1.1\r\nHost: localhost\r\nContent-Length: 5\r\n\r\nfirst")
	time.Sleep(10 * time.Millisecond)
	r.send("POST / HTTP/1.1\r\nHost: localhost\r\nContent-Length: 6\r\n\r\nsecond")
	for _, want := range []string{"first", "second"} {
		if _, got := r.answer("POST"); got != want {
			t.Fatalf("got %q, want %q", got, want)
		}
		if err := <-errs; err != nil {
			t.Fatalf("request %q was cancelled: %v", want, err)
		}
	}
}

func TestHTTPServer_WatchesOnlyWhatIsSlow(t *testing.T) {
	// A request that is not slow (no notice, no answer streamed) starts no
	// goroutine reading the connection: its client leaving is not seen.
	// One that streams its answer is watched from its first flush.
	if err := leaveWhileServed(t, smallPost, 300*time.Millisecond, nil); err != nil {
		t.Errorf("quiet: the handler ended with %v", err)
	}
	flush := func(w http.ResponseWriter, _ *http.Request) { w.(http.Flusher).Flush() }
	if err := leaveWhileServed(t, smallPost, 10*time.Second, flush); !errors.Is(err, context.Canceled) {
		t.Errorf("streaming: the handler ended with %v", err)
	}
}

func TestHTTPServer_HeaderTimeout(t *testing.T) {
	r := newWireHTTP(t, http.HandlerFunc(echo), func(s *httpServer) { s.readHeaderTimeout = 50 * time.Millisecond })
	r.send("GET / HTTP/1.1\r\nHost: loc")
	if !r.closed() {
		t.Fatal("a header that never ends kept the connection")
	}
}

func TestHTTPServer_PanicEndsOnlyItsConnection(t *testing.T) {
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/panic" {
			panic("handler bug")
		}
		_, _ = io.WriteString(w, "fine")
	})
	r := newWireHTTP(t, h, nil)
	r.send("GET /panic HTTP/1.1\r\nHost: localhost\r\n\r\n")
	if !r.closed() {
		t.Fatal("the connection survived its handler's panic")
	}
	r.dial()
	r.send("GET / HTTP/1.1\r\nHost: localhost\r\n\r\n")
	if _, got := r.answer("GET"); got != "fine" {
		t.Fatalf("after a panic: %q", got)
	}
}

func TestHTTPServer_Shutdown(t *testing.T) {
	started, release := make(chan struct{}), make(chan struct{})
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/slow" {
			close(started)
			<-release
		}
		_, _ = io.WriteString(w, "done")
	})
	r := newWireHTTP(t, h, nil)
	idle := newWireClient(t, r.addr)
	idle.send("GET / HTTP/1.1\r\nHost: localhost\r\n\r\n")
	idle.answer("GET")
	r.send("GET /slow HTTP/1.1\r\nHost: localhost\r\n\r\n")
	<-started
	shut := make(chan error, 1)
	go func() { shut <- r.srv.Shutdown(context.Background()) }()
	if !idle.closed() {
		t.Fatal("Shutdown left an idle connection open")
	}
	select {
	case err := <-shut:
		t.Fatalf("Shutdown returned %v while a request was served", err)
	case <-time.After(50 * time.Millisecond):
	}
	close(release)
	resp, got := r.answer("GET")
	if got != "done" || !resp.Close {
		t.Fatalf("the request served during Shutdown: %q, close %v", got, resp.Close)
	}
	if err := <-shut; err != nil {
		t.Fatal(err)
	}
	if _, err := net.Dial("tcp", r.addr); err == nil {
		t.Fatal("a connection was accepted after Shutdown")
	}
}

// newWireClient opens a second client connection to addr.
func newWireClient(t *testing.T, addr string) *wireHTTP {
	r := &wireHTTP{t: t, addr: addr}
	r.dial()
	return r
}

// refusing answers 401 without reading the body, as the guard refuses a
// request without the token.
func refusing(w http.ResponseWriter, _ *http.Request) {
	http.Error(w, "no token", http.StatusUnauthorized)
}

func TestHTTPServer_RefusalDoesNotWaitForTheBody(t *testing.T) {
	// A client that declares a body and never sends it gets its refusal
	// at once, and holds nothing: a long body is not drained, nor one the
	// connection closes after anyway.
	for _, tt := range []struct{ name, req string }{
		{"long body", "POST / HTTP/1.1\r\nHost: localhost\r\nContent-Length: 1000000\r\n\r\n"},
		{"connection closes", "POST / HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\nContent-Length: 10\r\n\r\n"},
		{"HTTP/1.0", "POST / HTTP/1.0\r\nContent-Length: 10\r\n\r\n"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			r := newWireHTTP(t, http.HandlerFunc(refusing), nil)
			r.send(tt.req)
			start := time.Now()
			resp, _ := r.answer("POST")
			if resp.StatusCode != http.StatusUnauthorized || !resp.Close || time.Since(start) > time.Second {
				t.Fatalf("%d, close %v, after %v", resp.StatusCode, resp.Close, time.Since(start))
			}
		})
	}
}

func TestHTTPServer_ShutdownClosesAHalfReadHeader(t *testing.T) {
	r := newWireHTTP(t, http.HandlerFunc(echo), nil)
	r.send("GET / HTTP/1.1\r\nHost: localhost\r\n\r\n")
	r.answer("GET")
	r.send("POST /mcp HTTP/1.1\r\nHost: loc")
	time.Sleep(50 * time.Millisecond)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	if err := r.srv.Shutdown(ctx); err != nil {
		t.Fatalf("Shutdown waited on a header never finished: %v", err)
	}
	if err := r.srv.Close(); err != nil {
		t.Fatalf("Close after Shutdown: %v", err)
	}
}

func TestHTTPServer_SilentConnectionGetsTheHeaderTimeout(t *testing.T) {
	r := newWireHTTP(t, http.HandlerFunc(echo), func(s *httpServer) {
		s.readHeaderTimeout, s.idleTimeout = 50*time.Millisecond, time.Hour
	})
	start := time.Now()
	if !r.closed() || time.Since(start) > 2*time.Second {
		t.Fatalf("a connection that never sent a request was held %v", time.Since(start))
	}
}

func TestHTTPServer_WriteDeadlineEndsWithItsRequest(t *testing.T) {
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/first" {
			_ = http.NewResponseController(w).SetWriteDeadline(time.Now().Add(20 * time.Millisecond))
			_, _ = io.WriteString(w, "first")
			return
		}
		time.Sleep(60 * time.Millisecond)
		_, _ = io.WriteString(w, "second")
	})
	r := newWireHTTP(t, h, nil)
	for _, p := range []string{"first", "second"} {
		r.send("GET /" + p + " HTTP/1.1\r\nHost: localhost\r\n\r\n")
		if _, got := r.answer("GET"); got != p {
			t.Fatalf("/%s: %q", p, got)
		}
	}
}

func TestHTTPServer_CRLFAfterAPost(t *testing.T) {
	r := newWireHTTP(t, http.HandlerFunc(echo), nil)
	r.send("POST /a HTTP/1.1\r\nHost: localhost\r\nContent-Length: 2\r\n\r\n{}\r\nGET /b HTTP/1.1\r\nHost: localhost\r\n\r\n")
	for _, want := range []string{"POST /a {}", "GET /b "} {
		if resp, got := r.answer("GET"); resp.StatusCode != 200 || got != want {
			t.Fatalf("%d %q, want %q", resp.StatusCode, got, want)
		}
	}
}

func TestHTTPServer_WriteBeyondTheDeclaredLength(t *testing.T) {
	errs := make(chan error, 1)
	h := http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Length", "3")
		_, err := io.WriteString(w, "hello")
		errs <- err
		_, _ = io.WriteString(w, "hey")
	})
	r := newWireHTTP(t, h, nil)
	r.send("GET / HTTP/1.1\r\nHost: localhost\r\n\r\n")
	if _, got := r.answer("GET"); got != "hey" {
		t.Fatalf("%q", got)
	}
	if err := <-errs; !errors.Is(err, http.ErrContentLength) {
		t.Fatalf("writing past the length: %v", err)
	}
}

func TestHTTPServer_CRLFAfterAPostIsNoRequest(t *testing.T) {
	// A CRLF a client sends after a POST's body is skipped everywhere the
	// next request could begin: the watch of a slow call still sees the
	// client leave, the wait for the next request is an idle one, and
	// Shutdown closes the connection as idle.
	post := "POST /a HTTP/1.1\r\nHost: localhost\r\nContent-Length: 2\r\n\r\n{}\r\n"
	t.Run("the watch", func(t *testing.T) {
		if err := leaveWhileServed(t, post, 5*time.Second, giveSlow); !errors.Is(err, context.Canceled) {
			t.Fatalf("the handler ended with %v", err)
		}
	})
	t.Run("the idle timeout", func(t *testing.T) {
		r := newWireHTTP(t, http.HandlerFunc(echo), func(s *httpServer) {
			s.readHeaderTimeout, s.idleTimeout = 100*time.Millisecond, 10*time.Second
		})
		r.send(post)
		r.answer("POST")
		time.Sleep(300 * time.Millisecond) // past the header timeout, within the idle one
		r.send("GET /b HTTP/1.1\r\nHost: localhost\r\n\r\n")
		if _, got := r.answer("GET"); got != "GET /b " {
			t.Fatalf("%q", got)
		}
	})
	t.Run("Shutdown", func(t *testing.T) {
		r := newWireHTTP(t, http.HandlerFunc(echo), nil)
		r.send(post)
		r.answer("POST")
		time.Sleep(20 * time.Millisecond)
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancel()
		if err := r.srv.Shutdown(ctx); err != nil {
			t.Fatalf("Shutdown waited on an idle connection: %v", err)
		}
	})
}

func TestHTTPServer_ShutdownClosesAHalfHeaderSentEarly(t *testing.T) {
	// The half header came in the same write as the request before it, so
	// it is already read when that request has been answered.
	r := newWireHTTP(t, http.HandlerFunc(echo), nil)
	r.send("GET / HTTP/1.1\r\nHost: localhost\r\n\r\nPOST /mcp HTTP/1.1\r\nHost: loc")
	r.answer("GET")
	time.Sleep(20 * time.Millisecond)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	if err := r.srv.Shutdown(ctx); err != nil {
		t.Fatalf("Shutdown waited on a header never finished: %v", err)
	}
}

func TestHTTPServer_AReplacedBodyKeepsTheConnection(t *testing.T) {
	// A handler may put a body of its own in the request (conduct puts
	// back what it read): the connection still carries the next request.
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		r.Body = io.NopCloser(strings.NewReader(string(body)))
		_, _ = io.WriteString(w, "read "+string(body))
	})
	r := newWireHTTP(t, h, nil)
	for _, body := range []string{"", "{}"} {
		r.send("POST / HTTP/1.1\r\nHost: localhost\r\nContent-Length: " + strconv.Itoa(len(body)) + "\r\n\r\n" + body)
		if resp, got := r.answer("POST"); got != "read "+body || resp.Close {
			t.Fatalf("%q, close %v", got, resp.Close)
		}
	}
}
