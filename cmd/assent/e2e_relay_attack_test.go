package main

import (
	"context"
	"encoding/json"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// recorder is a fake MCP endpoint on loopback that records every request
// it gets, with its Authorization header.
type recorder struct {
	mu   sync.Mutex
	seen []string
}

func (rec *recorder) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	rec.mu.Lock()
	rec.seen = append(rec.seen, r.Method+" "+r.URL.String()+" "+r.Header.Get("Authorization"))
	rec.mu.Unlock()
	w.Header().Set("Content-Type", "application/json")
	_, _ = w.Write([]byte(`{"jsonrpc":"2.0","id":1,"result":{"protocolVersion":"2025-11-25","capabilities":{"tools":{}},"serverInfo":{"name":"fake","version":"1"}}}`))
}

func (rec *recorder) reset() {
	rec.mu.Lock()
	rec.seen = nil
	rec.mu.Unlock()
}

func (rec *recorder) requests() []string {
	rec.mu.Lock()
	defer rec.mu.Unlock()
	return append([]string(nil), rec.seen...)
}

// TestE2E_RelayIgnoresAPlantedRuntimeFile plants, where the relay used to
// read its runtime file ($XDG_RUNTIME_DIR/assent/server.json), the files
// another local user or program could plant: a foreign token_env or
// token_file, a 0666 file, a file of another owner, a non-loopback URL.
// The relay trusted each and sent the named credential to the fake
// server; now it reads none of them, finds no console, and sends nothing
// anywhere.
func TestE2E_RelayIgnoresAPlantedRuntimeFile(t *testing.T) {
	rec := &recorder{}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := &http.Server{Handler: rec, ReadHeaderTimeout: 5 * time.Second}
	go func() { _ = srv.Serve(ln) }()
	t.Cleanup(func() { _ = srv.Close() })
	fake := "http://" + ln.Addr().String() + "/mcp"
	const secret = "ghp_planted_secret_0123456789abcdef"

	tests := []struct {
		name    string
		runtime map[string]any
		mode    os.FileMode
		owner   int    // -1: this user
		proxy   string // HTTP_PROXY for the relay: how a non-loopback URL is caught on loopback
	}{
		{"foreign token_env", map[string]any{"url": fake, "token_env": "GITHUB_TOKEN", "pid": 0}, 0o600, -1, ""},
		{"foreign token_file", map[string]any{"url": fake, "token_file": "CREDENTIALS", "pid": 0}, 0o600, -1, ""},
		{"file others may write", map[string]any{"url": fake, "token_env": "GITHUB_TOKEN", "pid": 0}, 0o666, -1, ""},
		{"file of another user", map[string]any{"url": fake, "token_env": "GITHUB_TOKEN", "pid": 0}, 0o600, 4242, ""},
		{"non-loopback URL", map[string]any{"url": "http://203.0.113.7/mcp", "token_env": "GITHUB_TOKEN", "pid": 0}, 0o600, -1, fake},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if tc.owner >= 0 && os.Getuid() != 0 {
				t.Skip("needs root, to plant a file of another user")
			}
			e := newE2E(t)
			rec.reset()
			creds := filepath.Join(e.dir, ".git-credentials")
			writeFile(t, creds, "https://me:"+secret+"@example.com\n")
			if tc.runtime["token_file"] != nil {
				tc.runtime["token_file"] = creds
			}
			dir := filepath.Join(e.dir, "run", "assent")
			if err := os.MkdirAll(dir, 0o700); err != nil {
				t.Fatal(err)
			}
			data, _ := json.Marshal(tc.runtime)
			planted := filepath.Join(dir, "server.json")
			writeFile(t, planted, string(data))
			if err := os.Chmod(planted, tc.mode); err != nil {
				t.Fatal(err)
			}
			if tc.owner >= 0 {
				if err := os.Chown(planted, tc.owner, tc.owner); err != nil {
					t.Fatal(err)
				}
			}
			ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
			defer cancel()
			cmd := e.command(ctx, "stdio")
			cmd.Env = append(cmd.Env, "GITHUB_TOKEN="+secret)
			if tc.proxy != "" {
				cmd.Env = append(cmd.Env, "HTTP_PROXY="+tc.proxy, "http_proxy="+tc.proxy)
			}
			cmd.Stdin = strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"x","version":"1"}}}` + "\n")
			out, err := cmd.CombinedOutput()
			if err == nil || !strings.Contains(string(out), "no console is running") {
				t.Errorf("the relay with a planted runtime file: %v\n%s", err, out)
			}
			if strings.Contains(string(out), secret) {
				t.Errorf("the secret reached the relay's output:\n%s", out)
			}
			if got := rec.requests(); len(got) > 0 {
				t.Fatalf("the relay sent %d requests to the planted URL: %q", len(got), got)
			}
		})
	}
}
