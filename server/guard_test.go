package server

import (
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/assent-sh/assent/server/servertest"
)

func TestHTTP_Guard(t *testing.T) {
	const initialize = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}`
	tests := []struct {
		name   string
		header map[string]string
		host   string
		query  string
		body   string
		chunk  bool // send the body without a length
		status int
	}{
		{name: "good request", status: http.StatusOK},
		{name: "no token", header: map[string]string{"Authorization": ""}, status: http.StatusUnauthorized},
		{name: "wrong token", header: map[string]string{"Authorization": "Bearer test-token-0123456789abcdeX"}, status: http.StatusUnauthorized},
		{name: "token in the URL", header: map[string]string{"Authorization": ""}, query: "?token=" + testToken + "&access_token=" + testToken, status: http.StatusUnauthorized},
		{name: "foreign Host", host: "evil.example", status: http.StatusForbidden},
		{name: "rebinding Host with our port", host: "attacker.example:7323", status: http.StatusForbidden},
		{name: "localhost Host", host: "localhost", status: http.StatusOK},
		{name: "foreign Origin", header: map[string]string{"Origin": "https://evil.example"}, status: http.StatusForbidden},
		{name: "null Origin", header: map[string]string{"Origin": "null"}, status: http.StatusForbidden},
		{name: "loopback Origin", header: map[string]string{"Origin": "http://localhost:6274"}, status: http.StatusOK},
		{name: "oversize body", body: `{"jsonrpc":"2.0","id":1,"method":"ping","params":{"pad":"` + strings.Repeat("x", 2000) + `"}}`, status: http.StatusRequestEntityTooLarge},
		{name: "oversize body without a length", chunk: true, body: `{"pad":"` + strings.Repeat("x", 2000) + `"}`, status: http.StatusRequestEntityTooLarge},
		{name: "malformed JSON-RPC", body: `{"jsonrpc":`, status: http.StatusBadRequest},
	}
	f := newFixture(t, nil)
	h := f.serveHTTP(HTTPOptions{MaxBody: 1024})
	hc := &http.Client{Transport: &http.Transport{}}
	defer hc.CloseIdleConnections()
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			body := tc.body
			if body == "" {
				body = initialize
			}
			header := map[string]string{"Authorization": "Bearer " + testToken}
			for k, v := range tc.header {
				header[k] = v
			}
			var resp *http.Response
			if tc.chunk {
				resp = postChunked(t, hc, h.URL(), body, header)
			} else {
				resp = servertest.Post(t, hc, h.URL()+tc.query, tc.host, body, header)
			}
			if resp.StatusCode != tc.status {
				t.Fatalf("status %d, want %d", resp.StatusCode, tc.status)
			}
			if tc.status == http.StatusUnauthorized && resp.Header.Get("WWW-Authenticate") == "" {
				t.Error("401 without WWW-Authenticate")
			}
		})
	}
}

// postChunked posts a body without announcing its length, as a streaming
// client may: the cap must hold while reading, not only by the header.
func postChunked(t *testing.T, hc *http.Client, url, body string, header map[string]string) *http.Response {
	t.Helper()
	req, err := http.NewRequest(http.MethodPost, url, io.NopCloser(strings.NewReader(body)))
	if err != nil {
		t.Fatal(err)
	}
	req.ContentLength = -1
	req.Header.Set("Content-Type", "application/json")
	for k, v := range header {
		req.Header.Set(k, v)
	}
	resp, err := hc.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	return resp
}

// TestGuard_BodyIsReadOnce shows that what follows the guard gets the body
// the guard read without a copy, as often as it asks, and that a handler
// after it still reads the whole body.
func TestGuard_BodyIsReadOnce(t *testing.T) {
	const body = `{"jsonrpc":"2.0","id":1,"method":"ping"}`
	var first, second []byte
	var rest string
	g := &guard{token: []byte(testToken), maxBody: 1 << 20, log: slog.New(slog.DiscardHandler),
		next: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			var err error
			if first, err = bodyOf(r); err != nil {
				t.Error(err)
			}
			if second, err = bodyOf(r); err != nil {
				t.Error(err)
			}
			b, _ := io.ReadAll(r.Body)
			rest = string(b)
		})}
	req := httptest.NewRequest(http.MethodPost, "http://127.0.0.1:7323/mcp", strings.NewReader(body))
	req.Header.Set("Authorization", "Bearer "+testToken)
	g.ServeHTTP(httptest.NewRecorder(), req)
	if string(first) != body || string(second) != body || rest != body {
		t.Fatalf("the handler read %q, then %q, then %q from the body; want %q each time", first, second, rest, body)
	}
	if &first[0] != &second[0] {
		t.Error("the body was copied between reads")
	}
}
