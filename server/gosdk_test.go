package server

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/assent-sh/assent/queue"
)

// bearer adds the token to every request, and sends the status of each
// notifications/cancelled to cancels.
type bearer struct {
	next    http.RoundTripper
	cancels chan int
}

func (b bearer) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+testToken)
	var body []byte
	if r.Body != nil {
		body, _ = io.ReadAll(r.Body)
		r.Body = io.NopCloser(bytes.NewReader(body))
	}
	resp, err := b.next.RoundTrip(r)
	if err == nil && bytes.Contains(body, []byte(`"notifications/cancelled"`)) {
		b.cancels <- resp.StatusCode
	}
	return resp, err
}

// TestHTTP_GoSDKCancelsAndCallsAgain: go-sdk v1.8's client, in either
// era, cancels a call waiting for the operator and makes another call on
// the same session. In the 2026-07-28 era it posts notifications/cancelled
// without _meta; mcp-go answered 400, and go-sdk closed the session.
func TestHTTP_GoSDKCancelsAndCallsAgain(t *testing.T) {
	for _, version := range []string{"2026-07-28", "2025-11-25"} {
		t.Run(version, func(t *testing.T) {
			f := newFixture(t, nil)
			h := f.serveHTTP(HTTPOptions{})
			tr := &http.Transport{}
			t.Cleanup(tr.CloseIdleConnections)
			cancels := make(chan int, 1)
			c := sdk.NewClient(&sdk.Implementation{Name: "go-sdk-agent", Version: "1"}, nil)
			ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
			defer cancel()
			cs, err := c.Connect(ctx, &sdk.StreamableClientTransport{Endpoint: h.URL(),
				HTTPClient: &http.Client{Transport: bearer{tr, cancels}}, DisableStandaloneSSE: true},
				&sdk.ClientSessionOptions{ProtocolVersion: version})
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { cs.Close() })
			if got := cs.InitializeResult().ProtocolVersion; got != version {
				t.Fatalf("negotiated %s", got)
			}
			callCtx, stop := context.WithCancel(ctx)
			errc := make(chan error, 1)
			go func() {
				_, err := cs.CallTool(callCtx, &sdk.CallToolParams{Name: "change", Arguments: map[string]any{"file": "f"}})
				errc <- err
			}()
			id := f.pendingCall()
			stop()
			if err := <-errc; err == nil {
				t.Fatal("the cancelled call returned no error")
			}
			f.WaitStatus(id, queue.Cancelled)
			// go-sdk sends its cancellation after the call returns; the next
			// call comes after it has been answered, on the same session.
			select {
			case status := <-cancels:
				if status != http.StatusAccepted {
					t.Fatalf("notifications/cancelled answered %d", status)
				}
			case <-ctx.Done():
				t.Fatal("go-sdk sent no notifications/cancelled")
			}
			f.Runner.Expect("uname", "again").Stdout("again\n")
			res, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: "look", Arguments: map[string]any{"what_thing": "again"}})
			if err != nil {
				t.Fatalf("the call after a cancellation: %v", err)
			}
			if text := res.Content[0].(*sdk.TextContent).Text; res.IsError || !strings.HasPrefix(text, "again") {
				t.Fatalf("isError %v %q", res.IsError, text)
			}
		})
	}
}
