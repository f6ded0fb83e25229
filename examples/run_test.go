package examples

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/assent-sh/assent/config"
	"github.com/assent-sh/assent/exec"
)

// runTool expands a default tool call and runs it as a real process. The
// deadline is far above what the call needs, so a slow machine cannot fail
// the test; a runaway call (the unbounded date ran for 30 s) would.
func runTool(t *testing.T, c *config.Config, tool string, args map[string]any) exec.Result {
	t.Helper()
	cmd, err := c.Tool(tool).Expand(args)
	if err != nil {
		t.Fatal(err)
	}
	cmd.Timeout = 20 * time.Second
	res := exec.NewLocal(exec.Options{}).Run(context.Background(), cmd, nil)
	if res.StartError != "" || res.TimedOut || res.ExitCode > 1 {
		t.Fatalf("%s %v: %+v\nstderr: %s", tool, cmd.Argv, res, res.Stderr.Data)
	}
	t.Logf("%s ran %v, wrote %d bytes", tool, res.Duration, res.Stdout.Bytes)
	return res
}

// The worst format the pack allows, every field at the widest width, ends
// at once with a few KiB; the output is what the CPU time went into.
func TestPack_WorstDateFormatIsQuick(t *testing.T) {
	c := loadPack(t)
	format := strings.Repeat("%99c", 25) // max_length 100, two width digits
	res := runTool(t, c, "get_datetime", map[string]any{"format": format})
	if limit := int64(25*99 + 1); res.Stdout.Bytes > limit || res.Stdout.Bytes < 25*99 {
		t.Errorf("date wrote %d bytes, want %d at most (padded fields and a newline)", res.Stdout.Bytes, limit)
	}
}

// The grep pattern that took over 10 s on a 41-character line with
// back-references is refused; the same shape without them, which the pack
// allows, ends at once.
func TestPack_WorstGrepShapeIsQuick(t *testing.T) {
	dir := workDir(t)
	c := loadIn(t, dir, config.Source{Name: DefaultName, Data: DefaultPack()})
	file := filepath.Join(dir, "line.txt")
	if err := os.WriteFile(file, []byte(strings.Repeat("ab", 20)+"c\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	slow := `^\(.*\)\(.*\)\(.*\)\(.*\)\(.*\)\(.*\)\1\2\3\4\5\6$`
	if _, err := c.Tool("grep_search").Expand(map[string]any{"pattern": slow, "path": file}); err == nil {
		t.Fatalf("back-references accepted: %s", slow)
	}
	allowed := `^\(.*\)\(.*\)\(.*\)\(.*\)\(.*\)\(.*\)\(.*\)*\(.*\)*\(.*\)*$`
	_ = runTool(t, c, "grep_search", map[string]any{"pattern": allowed, "path": file})
}

// A recursive grep over the project reads every file below it, which no
// rule sees one by one: the pack's grep skips the secret files itself, so
// `grep_search pattern="" path=.` no longer prints .env.
func TestPack_GrepDoesNotPrintSecretFiles(t *testing.T) {
	dir := workDir(t)
	files := map[string]string{
		"main.go": "token := lookup()\n", ".env": "token=hunter2\n", "prod.env": "token=hunter3\n",
		".env.local": "token=hunter4\n", "deploy/server.key": "token=hunter5\n", ".netrc": "password token\n",
	}
	for name, text := range files {
		path := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	c := loadIn(t, dir, config.Source{Name: DefaultName, Data: DefaultPack()})
	for _, pattern := range []string{"", "token"} {
		out := string(runTool(t, c, "grep_search", map[string]any{"pattern": pattern, "path": dir}).Stdout.Data)
		if !strings.Contains(out, "main.go:1:token := lookup()") {
			t.Errorf("grep %q found no match in main.go:\n%s", pattern, out)
		}
		if strings.Contains(out, "hunter") || strings.Contains(out, "password") {
			t.Errorf("grep %q printed a secret file:\n%s", pattern, out)
		}
	}
}
