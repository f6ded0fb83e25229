// Package servertest holds what tests of assent's MCP server share when
// they drive it through mcp-go's client: the two protocol eras, a
// notification collector, and short forms of connecting and calling.
package servertest

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/mcp"
)

// Era is a client configuration for one protocol era.
type Era struct {
	// Name is the protocol version, for subtest names.
	Name string
	// Options configure the client.
	Options []client.ClientOption
}

// Eras are both eras mcp-go's client speaks: by default the stateless
// 2026-07-28 core, or, pinned, the 2025-11-25 initialize handshake.
func Eras() []Era {
	return []Era{
		{mcp.ProtocolVersion20260728, nil},
		{mcp.ProtocolVersion20251125, []client.ClientOption{client.WithProtocolVersion(mcp.ProtocolVersion20251125)}},
	}
}

// Notes collects a client's notifications; the zero value is ready.
type Notes struct {
	mu  sync.Mutex
	got []mcp.JSONRPCNotification
}

// Add records a notification; pass it to Client.OnNotification.
func (n *Notes) Add(x mcp.JSONRPCNotification) {
	n.mu.Lock()
	n.got = append(n.got, x)
	n.mu.Unlock()
}

// Tokens returns the progressToken of every progress notification, in
// arrival order (nil for one without a token).
func (n *Notes) Tokens() []any {
	n.mu.Lock()
	defer n.mu.Unlock()
	var out []any
	for _, x := range n.got {
		if x.Method == string(mcp.MethodNotificationProgress) {
			out = append(out, x.Params.AdditionalFields["progressToken"])
		}
	}
	return out
}

// Messages returns the "message" of every notification of the method, in
// arrival order.
func (n *Notes) Messages(method mcp.MCPMethod) []string {
	n.mu.Lock()
	defer n.mu.Unlock()
	var out []string
	for _, x := range n.got {
		if x.Method == string(method) {
			m, _ := x.Params.AdditionalFields["message"].(string)
			out = append(out, m)
		}
	}
	return out
}

// Connect starts c and initializes it as clientName; n, when non-nil,
// collects its notifications. The client is closed when the test ends.
func Connect(t testing.TB, c *client.Client, clientName string, n *Notes) {
	t.Helper()
	if n != nil {
		c.OnNotification(n.Add)
	}
	// Start's context lives as long as the connection (a listening
	// stream, a child process), so it is not the handshake's timeout.
	if err := c.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = c.Close() })
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	var ir mcp.InitializeRequest
	ir.Params.ClientInfo = mcp.Implementation{Name: clientName, Version: "1"}
	if _, err := c.Initialize(ctx, ir); err != nil {
		t.Fatal(err)
	}
}

// Call calls a tool; a non-empty token asks for progress notifications.
func Call(ctx context.Context, c *client.Client, tool string, args map[string]any, token string) (*mcp.CallToolResult, error) {
	var r mcp.CallToolRequest
	r.Params.Name = tool
	r.Params.Arguments = args
	if token != "" {
		r.Params.Meta = &mcp.Meta{ProgressToken: token}
	}
	return c.CallTool(ctx, r)
}

// Text is the text content of a result.
func Text(r *mcp.CallToolResult) string {
	var b strings.Builder
	for _, c := range r.Content {
		if tc, ok := c.(mcp.TextContent); ok {
			b.WriteString(tc.Text)
		}
	}
	return b.String()
}

// WaitFor polls cond until it holds, failing the test after 10 s. mcp-go's
// client delivers notifications asynchronously, sometimes after the
// response they preceded, so tests poll for them.
func WaitFor(t testing.TB, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(5 * time.Millisecond)
	}
}
