package main

import (
	"bufio"
	"context"
	"net"
	"net/http"
	osexec "os/exec"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/assent-sh/assent/server"
	"github.com/assent-sh/assent/server/servertest"
)

const e2eToken = "e2e-token-0123456789abcdef"

// httpServer starts `assent serve --headless` on a free loopback port with
// the token in ASSENT_TOKEN, and returns its URL and process; the test's
// end sends SIGTERM and requires a clean exit.
func (e *e2e) httpServer(args ...string) (string, *osexec.Cmd, *servertest.Buffer) {
	e.t.Helper()
	_, url, cmd, stderr := e.serveHeadless(args...)
	return url, cmd, stderr
}

// serveHeadless is httpServer that also returns the line serve printed
// first, the one that says where it serves.
func (e *e2e) serveHeadless(args ...string) (first, url string, cmd *osexec.Cmd, stderr *servertest.Buffer) {
	e.t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		e.t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	args = append([]string{"serve", "--headless", "--listen", addr, "--tools", e.tools}, args...)
	cmd = e.command(context.Background(), args...)
	cmd.Env = append(cmd.Env, "ASSENT_TOKEN="+e2eToken)
	stderr = &servertest.Buffer{}
	cmd.Stderr = stderr
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		e.t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		e.t.Fatal(err)
	}
	first = firstLine(e.t, bufio.NewReader(stdout))
	url = "http://" + addr + "/mcp"
	if !strings.Contains(first, "serving MCP at "+url) {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
		e.t.Fatalf("first line %q\n%s", first, stderr)
	}
	e.t.Cleanup(func() {
		if cmd.ProcessState == nil {
			_ = cmd.Process.Signal(syscall.SIGTERM)
			if err := cmd.Wait(); err != nil {
				e.t.Errorf("serve exited with %v\n%s", err, stderr)
			}
		}
		if e.t.Failed() {
			e.t.Logf("assent's stderr:\n%s", stderr)
		}
	})
	return first, url, cmd, stderr
}

// httpClient is a started Streamable HTTP client carrying the token.
func (e *e2e) httpClient(url string, opts []client.ClientOption, n *servertest.Notes, topts ...transport.StreamableHTTPCOption) *client.Client {
	e.t.Helper()
	hc := &http.Client{Transport: &http.Transport{}}
	e.t.Cleanup(hc.CloseIdleConnections)
	topts = append([]transport.StreamableHTTPCOption{
		transport.WithHTTPHeaders(map[string]string{"Authorization": "Bearer " + e2eToken}),
		transport.WithHTTPBasicClient(hc),
	}, topts...)
	tr, err := transport.NewStreamableHTTP(url, topts...)
	if err != nil {
		e.t.Fatal(err)
	}
	c := client.NewClient(tr, opts...)
	servertest.Connect(e.t, c, "e2e-agent", n)
	e.t.Cleanup(func() { _ = c.Close() })
	return c
}

func TestE2E_HTTP(t *testing.T) {
	for _, era := range servertest.Eras() {
		t.Run(era.Name, func(t *testing.T) {
			e := newE2E(t)
			url, _, _ := e.httpServer()
			var n servertest.Notes
			c := e.httpClient(url, era.Options, &n)
			scenario(t, e, c, &n)
		})
	}
}

func TestE2E_HTTPListChangedAfterEditingTheToolFile(t *testing.T) {
	for _, era := range servertest.Eras() {
		t.Run(era.Name, func(t *testing.T) {
			e := newE2E(t)
			url, _, _ := e.httpServer("--watch")
			var n servertest.Notes
			var c *client.Client
			if era.Options == nil {
				c = e.httpClient(url, era.Options, &n)
				stop, err := c.ListenAsync(context.Background(), mcp.SubscriptionFilter{ToolsListChanged: true}, nil)
				if err != nil {
					t.Fatal(err)
				}
				defer stop()
			} else {
				c = e.httpClient(url, era.Options, &n, transport.WithContinuousListening())
			}
			// The listening stream opens in the background; edit until the
			// notification arrives, a new tool name each time.
			edits := 0
			servertest.WaitFor(t, "tools/list_changed", func() bool {
				if len(n.Messages(mcp.MethodNotificationToolsListChanged)) > 0 {
					return true
				}
				edits++
				e.writeTools(strings.Replace(e2eTools, `{"name": "burn"`,
					`{"name": "fresh`+strings.Repeat("x", edits)+`", "command": "id", "read_only": true}, {"name": "burn"`, 1))
				time.Sleep(300 * time.Millisecond)
				return false
			})
			res, err := c.ListTools(context.Background(), mcp.ListToolsRequest{})
			if err != nil || len(res.Tools) != 6 {
				t.Fatalf("tools after the edit: %v %v", res, err)
			}
		})
	}
}

func TestE2E_HTTPGuard(t *testing.T) {
	e := newE2E(t)
	url, _, _ := e.httpServer()
	const ping = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}`
	tests := []struct {
		name   string
		auth   string
		host   string
		origin string
		body   string
		status int
	}{
		{"token", "Bearer " + e2eToken, "", "", ping, http.StatusOK},
		{"no token", "", "", "", ping, http.StatusUnauthorized},
		{"wrong token", "Bearer " + strings.ToUpper(e2eToken), "", "", ping, http.StatusUnauthorized},
		{"foreign Host", "Bearer " + e2eToken, "evil.example", "", ping, http.StatusForbidden},
		{"foreign Origin", "Bearer " + e2eToken, "", "https://evil.example", ping, http.StatusForbidden},
		{"null Origin", "Bearer " + e2eToken, "", "null", ping, http.StatusForbidden},
		{"oversize body", "Bearer " + e2eToken, "", "", `{"pad":"` + strings.Repeat("x", server.DefaultMaxBody) + `"}`, http.StatusRequestEntityTooLarge},
	}
	hc := &http.Client{Transport: &http.Transport{}}
	defer hc.CloseIdleConnections()
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			header := map[string]string{"Authorization": tc.auth, "Origin": tc.origin}
			if resp := servertest.Post(t, hc, url, tc.host, tc.body, header); resp.StatusCode != tc.status {
				t.Fatalf("status %d, want %d", resp.StatusCode, tc.status)
			}
		})
	}
}
