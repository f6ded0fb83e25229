package servertest

import (
	"context"
	"io"
	"net/http"
	"strings"
	"sync"
	"testing"

	"github.com/mark3labs/mcp-go/client"
)

// CallAll makes n calls at once, the i-th built by call(i), and returns
// the text of each answer in order, or "error: ..." for a call that got no
// result.
func CallAll(ctx context.Context, c *client.Client, n int, call func(i int) (tool string, args map[string]any)) []string {
	answers := make([]string, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() {
			tool, args := call(i)
			res, err := Call(ctx, c, tool, args, "")
			if err != nil {
				answers[i] = "error: " + err.Error()
				return
			}
			answers[i] = Text(res)
		})
	}
	wg.Wait()
	return answers
}

// Post sends one raw MCP POST, for the requests a client library never
// makes: no token, a foreign Host or Origin, an oversize body. header
// entries are set, or removed when "", over JSON defaults; host, when not
// "", replaces the Host header. The response's body is read and closed.
func Post(t testing.TB, hc *http.Client, url, host, body string, header map[string]string) *http.Response {
	t.Helper()
	req := newRequest(t, http.MethodPost, url, body, header)
	if host != "" {
		req.Host = host
	}
	resp, err := hc.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	_, _ = io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	return resp
}

// Buffer collects what a server logs or a child writes to stderr; it is
// safe for concurrent writes and reads.
type Buffer struct {
	mu sync.Mutex
	b  strings.Builder
}

// Write appends p.
func (l *Buffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

// String returns everything written so far.
func (l *Buffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// Exchange sends one raw request (any method) with JSON defaults, header
// entries set or removed as in Post, and returns the status, the response
// headers and the body.
func Exchange(t testing.TB, hc *http.Client, method, url, body string, header map[string]string) (int, http.Header, string) {
	t.Helper()
	resp, err := hc.Do(newRequest(t, method, url, body, header))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp.StatusCode, resp.Header, string(data)
}

// newRequest is a request with JSON defaults and header entries set, or
// removed when "".
func newRequest(t testing.TB, method, url, body string, header map[string]string) *http.Request {
	t.Helper()
	req, err := http.NewRequest(method, url, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	for k, v := range header {
		if v == "" {
			req.Header.Del(k)
		} else {
			req.Header.Set(k, v)
		}
	}
	return req
}
