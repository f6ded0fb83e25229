package server

import (
	"context"
	"log/slog"
	"strings"
	"testing"

	"github.com/mark3labs/mcp-go/client"

	"github.com/assent-sh/assent/server/servertest"
)

func TestLogCall_DenialsAtInfoOrdinaryRunsAtDebug(t *testing.T) {
	f := newFixture(t, nil)
	var logs servertest.Buffer
	f.s.log = slog.New(slog.NewTextHandler(&logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
	f.Runner.Expect("uname", "a")
	c := f.inProcess(nil, nil)
	ctx := context.Background()
	if _, err := servertest.Call(ctx, c, "look", map[string]any{"what_thing": "a"}, ""); err != nil {
		t.Fatal(err)
	}
	// A client name is the client's own text: it must not forge a line.
	evil, err := client.NewInProcessClient(f.s.MCP())
	if err != nil {
		t.Fatal(err)
	}
	servertest.Connect(t, evil, "x\nlevel=ERROR msg=forged", nil)
	if _, err := servertest.Call(ctx, evil, "burn", map[string]any{"x": "y"}, ""); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(logs.String()), "\n")
	if len(lines) != 2 {
		t.Fatalf("log lines:\n%s", logs.String())
	}
	for _, want := range []string{"level=DEBUG", "tool=look", "client=test-agent", "status=done", "exit=0"} {
		if !strings.Contains(lines[0], want) {
			t.Errorf("ordinary run logged %q, lacks %q", lines[0], want)
		}
	}
	for _, want := range []string{"level=INFO", "tool=burn", "status=denied", "rule=no-burn", `reason="never burn"`} {
		if !strings.Contains(lines[1], want) {
			t.Errorf("denial logged %q, lacks %q", lines[1], want)
		}
	}
}
