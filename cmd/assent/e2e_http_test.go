package main

import (
	"bufio"
	"context"
	"net"
	"net/http"
	osexec "os/exec"
	"path/filepath"
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
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		e.t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	args = append([]string{"serve", "--headless", "--listen", addr, "--tools", e.tools}, args...)
	cmd := e.command(context.Background(), args...)
	cmd.Env = append(cmd.Env, "ASSENT_TOKEN="+e2eToken)
	stderr := &servertest.Buffer{}
	cmd.Stderr = stderr
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		e.t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		e.t.Fatal(err)
	}
	line := firstLine(e.t, bufio.NewReader(stdout))
	url := "http://" + addr + "/mcp"
	if !strings.Contains(line, "serving MCP at "+url) {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
		e.t.Fatalf("first line %q\n%s", line, stderr)
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
	return url, cmd, stderr
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

// TestE2E_HTTPRuntimeFileAndShutdown checks the runtime file while the
// server runs, a second server on the same port failing clearly, and a
// SIGTERM ending it cleanly and removing the runtime file.
func TestE2E_HTTPRuntimeFileAndShutdown(t *testing.T) {
	e := newE2E(t)
	url, cmd, stderr := e.httpServer()
	rtPath := filepath.Join(e.dir, "run", "assent", "server.json")
	rt, err := server.ReadRuntime(rtPath)
	if err != nil {
		t.Fatal(err)
	}
	if rt.URL != url || rt.TokenEnv != "ASSENT_TOKEN" || rt.TokenFile != "" || rt.PID != cmd.Process.Pid {
		t.Fatalf("runtime file %+v", rt)
	}
	addr := strings.TrimSuffix(strings.TrimPrefix(url, "http://"), "/mcp")
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	second := e.command(ctx, "serve", "--headless", "--listen", addr, "--journal", filepath.Join(e.dir, "state", "second.jsonl"))
	second.Env = append(second.Env, "ASSENT_TOKEN="+e2eToken)
	out, err := second.CombinedOutput()
	if err == nil || !strings.Contains(string(out), addr+" is already in use") {
		t.Fatalf("second server on the same port: %v\n%s", err, out)
	}
	// A call running at the signal is answered before the server exits.
	c := e.httpClient(url, nil, nil)
	writeFile(t, filepath.Join(e.dir, "work", "sigterm.log"), "x\n")
	answer := make(chan string, 1)
	go func() {
		res, err := servertest.Call(context.Background(), c, "follow", map[string]any{"path": "sigterm.log"}, "")
		if err != nil {
			answer <- "error: " + err.Error()
			return
		}
		answer <- servertest.Text(res)
	}()
	servertest.WaitFor(t, "the call to run", func() bool { return len(processesWith("sigterm.log")) > 0 })
	if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	if err := cmd.Wait(); err != nil {
		t.Fatalf("exit after SIGTERM: %v\n%s", err, stderr)
	}
	if got := <-answer; !strings.HasPrefix(got, "cancelled while running: the client withdrew the call or assent shut down") {
		t.Fatalf("the running call was answered %q", got)
	}
	if pids := processesWith("sigterm.log"); len(pids) > 0 {
		t.Fatalf("children left: %v", pids)
	}
	if _, err := server.ReadRuntime(rtPath); err == nil {
		t.Fatal("runtime file left behind")
	}
}

func TestE2E_ServeRefusals(t *testing.T) {
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"no console yet", []string{"serve"}, "the console is not part of this build yet"},
		{"stdio relay not yet", []string{"stdio"}, "relaying to a running console is not part of this build yet"},
		{"remote without the flag", []string{"serve", "--headless", "--listen", "0.0.0.0:0"}, "pass --allow-remote"},
	}
	e := newE2E(t)
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			defer cancel()
			out, err := e.command(ctx, tc.args...).CombinedOutput()
			if err == nil || !strings.Contains(string(out), tc.want) {
				t.Fatalf("%v\n%s", err, out)
			}
		})
	}
}

// TestE2E_TokenNeverReachesChildren runs printenv under a server whose
// token came from the environment: the child's environment is built from
// scratch, so the token is not in it.
func TestE2E_TokenNeverReachesChildren(t *testing.T) {
	e := newE2E(t)
	e.writeTools(`{"tools": [{"name": "show", "command": "printenv ASSENT_TOKEN", "read_only": true}],
	 "rules": [{"decision": "allow", "read_only": true}]}`)
	url, _, _ := e.httpServer()
	c := e.httpClient(url, nil, nil)
	res, err := servertest.Call(context.Background(), c, "show", nil, "")
	if err != nil {
		t.Fatal(err)
	}
	if text := servertest.Text(res); res.IsError || strings.Contains(text, e2eToken) || !strings.HasPrefix(text, "[exit 1 · ") {
		t.Fatalf("isError %v, text %q", res.IsError, text)
	}
}
