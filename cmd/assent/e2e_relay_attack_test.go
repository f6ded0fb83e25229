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

func (rec *recorder) requests() []string {
	rec.mu.Lock()
	defer rec.mu.Unlock()
	return append([]string(nil), rec.seen...)
}

// TestE2E_RelayIgnoresAPlantedRuntimeFile plants, where the relay used to
// read its runtime file ($XDG_RUNTIME_DIR/assent/server.json), a file
// another local program could write, as this user and mode 0600, naming a
// fake server and two credentials (an environment variable and a file).
// The old relay sent them to the URL it read. Today's reads no runtime
// file at all, so one case covers it; the test guards against bringing
// that code back: the relay finds no console and sends nothing anywhere.
func TestE2E_RelayIgnoresAPlantedRuntimeFile(t *testing.T) {
	rec := &recorder{}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := &http.Server{Handler: rec, ReadHeaderTimeout: 5 * time.Second}
	go func() { _ = srv.Serve(ln) }()
	t.Cleanup(func() { _ = srv.Close() })
	const secret = "ghp_planted_secret_0123456789abcdef"

	e := newE2E(t)
	creds := filepath.Join(e.dir, ".git-credentials")
	writeFile(t, creds, "https://me:"+secret+"@example.com\n")
	dir := filepath.Join(e.dir, "run", "assent")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	data, _ := json.Marshal(map[string]any{"url": "http://" + ln.Addr().String() + "/mcp",
		"token_env": "GITHUB_TOKEN", "token_file": creds, "pid": 0})
	writeFile(t, filepath.Join(dir, "server.json"), string(data))
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	cmd := e.command(ctx, "stdio")
	cmd.Env = append(cmd.Env, "GITHUB_TOKEN="+secret)
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
}
