package main

import (
	"context"
	"os"
	osexec "os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestE2E_ClaudeCodeConnects runs the README's Claude Code setup with the
// real `claude` (npm @anthropic-ai/claude-code; .ci/run installs it):
// the HTTP server with its header, the relay and `stdio --headless`, all
// added at user scope, then `claude mcp list`, which connects to each.
// No model login is needed.
func TestE2E_ClaudeCodeConnects(t *testing.T) {
	claude, err := osexec.LookPath("claude")
	if err != nil {
		t.Skip("claude is not installed (npm install @anthropic-ai/claude-code puts it on PATH; .ci/run does)")
	}
	e := newE2E(t)
	url, _, _ := e.httpServer()
	home := filepath.Join(e.dir, "claude-home")
	if err := os.Mkdir(home, 0o700); err != nil {
		t.Fatal(err)
	}
	env := []string{"PATH=" + filepath.Dir(claude) + ":/usr/bin:/bin", "HOME=" + home}
	claudeDo := func(args ...string) string {
		t.Helper()
		ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
		defer cancel()
		cmd := osexec.CommandContext(ctx, claude, args...)
		// Servers start in its working directory, where the tools write.
		cmd.Env, cmd.Dir = env, filepath.Join(e.dir, "work")
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("claude %s: %v\n%s", strings.Join(args, " "), err, out)
		}
		return string(out)
	}
	claudeDo("mcp", "add", "-s", "user", "--transport", "http", "assent", url, "--header", "Authorization: Bearer "+e2eToken)
	claudeDo("mcp", "add", "-s", "user", "assent-relay", "--", e.bin, "stdio")
	claudeDo("mcp", "add", "-s", "user", "assent-headless", "--", e.bin, "stdio", "--headless",
		"--tools", e.tools, "--journal", filepath.Join(e.dir, "state", "claude.jsonl"))
	list := claudeDo("mcp", "list")
	for _, name := range []string{"assent", "assent-relay", "assent-headless"} {
		found := false
		for _, line := range strings.Split(list, "\n") {
			if strings.HasPrefix(line, name+": ") {
				found = true
				if !strings.Contains(line, "Connected") {
					t.Errorf("%s did not connect: %s", name, line)
				}
			}
		}
		if !found {
			t.Errorf("%s is not listed:\n%s", name, list)
		}
	}
	if get := claudeDo("mcp", "get", "assent"); !strings.Contains(get, "Bearer "+e2eToken) {
		t.Errorf("claude mcp get no longer prints the header (the README says it does):\n%s", get)
	}
}
