package server

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/assent-sh/assent/server/servertest"
)

func TestSocket_SeveralConsoles(t *testing.T) {
	dir := runtimeDir(t)
	a, b := newFixture(t, nil), newFixture(t, nil)
	ka := a.serveSocket(dir, "")
	kb := b.serveSocket(dir, "")
	if ka.Name() != "console" || kb.Name() != "console-2" {
		t.Fatalf("names %q and %q", ka.Name(), kb.Name())
	}
	if _, err := a.s.ListenSocket(SocketOptions{Dir: dir, Name: "console-2"}); err == nil ||
		!strings.Contains(err.Error(), `a console named "console-2" is already running (pid `) {
		t.Fatalf("a taken name: %v", err)
	}
	if _, _, err := DialConsole(dir, ""); err == nil || !strings.Contains(err.Error(), "2 consoles are running") ||
		!strings.Contains(err.Error(), "console-2 (pid ") || !strings.Contains(err.Error(), "--console NAME") {
		t.Fatalf("relay with no name: %v", err)
	}
	if _, _, err := DialConsole(dir, "other"); err == nil || !strings.Contains(err.Error(), `no console named "other"`) {
		t.Fatalf("relay to a name nobody has: %v", err)
	}
	c, stop := relayClient(t, RelayOptions{Dir: dir, Console: "console-2"}, nil, nil)
	go func() { _, _ = servertest.Call(context.Background(), c, "change", map[string]any{"file": "x"}, "") }()
	b.pendingCall() // it reached the second console
	if err := stop(); err != nil {
		t.Fatal(err)
	}
	// The first one ending leaves the second's files alone.
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := ka.Shutdown(ctx); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{kb.Path(), kb.runtimeFile(), filepath.Join(dir, "console-2.lock")} {
		if _, err := os.Lstat(p); err != nil {
			t.Errorf("the second console's %s: %v", p, err)
		}
	}
	if _, err := os.Lstat(ka.Path()); !os.IsNotExist(err) {
		t.Errorf("the first console's socket was left: %v", err)
	}
	if live, err := Consoles(dir); err != nil || len(live) != 1 || live[0].Name != "console-2" || live[0].PID != os.Getpid() {
		t.Fatalf("consoles %+v %v", live, err)
	}
}

// TestSocket_TakesOverACrashedConsolesName: a socket file whose console
// died (no lock held) is replaced.
func TestSocket_TakesOverACrashedConsolesName(t *testing.T) {
	dir := runtimeDir(t)
	if err := os.WriteFile(filepath.Join(dir, "console.sock"), nil, 0o600); err != nil {
		t.Fatal(err)
	}
	f := newFixture(t, nil)
	if k := f.serveSocket(dir, ""); k.Name() != "console" {
		t.Fatalf("name %q", k.Name())
	}
	conn, c, err := DialConsole(dir, "")
	if err != nil || c.Name != "console" {
		t.Fatalf("%+v %v", c, err)
	}
	conn.Close()
}
