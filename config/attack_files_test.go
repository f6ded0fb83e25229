package config

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestAttack_ToolFiles(t *testing.T) {
	tests := []struct{ name, file, want string }{
		{"redirect into a file", `[{"name": "a", "command": "ls {dir} > /etc/passwd"}]`, `t.json:1:37: tool "a": command: redirection ">"`},
		{"backticks", "[{\"name\": \"a\", \"command\": \"grep {x} `id`\"}]", `t.json:1:37: tool "a": command: command substitution`},
		{"newline smuggled in a string", `[{"name": "a", "command": "ls {x}\nrm -rf /"}]`, `tool "a": command: more than one command`},
		{"variable", `[{"name": "a", "command": "ls $HOME/{x}"}]`, `t.json:1:31: tool "a": command: variable expansion $HOME`},
		{"assignment", `[{"name": "a", "command": "LD_PRELOAD=/x.so ls"}]`, `tool "a": command: variable assignment`},
		{"sudo", `[{"name": "a", "command": "sudo ls {x}"}]`, `sudo runs other programs`},
		{"xargs", `[{"name": "a", "command": "xargs rm"}]`, `xargs runs other programs`},
		{"absolute shell", `[{"name": "a", "command": "/bin/sh -c {x}"}]`, `sh runs other programs`},
		{"bidi in template", `[{"name": "a", "command": ["ls", "\u202e{x}"]}]`, `bidirectional control`},
		{"unknown key smuggling a field", `[{"name": "a", "command": "ls", "Shell": false}]`, `unknown key "Shell" in tool "a"`},
		{"unknown settings", `{"settings": {"allow_all": true}}`, `unknown key "allow_all" in settings`},
		{"duplicate keys hide the real command", `[{"name": "a", "command": "ls", "command": "rm -rf /"}]`, `key "command" appears twice`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := load(t, testOptions(t), "t.json", tt.file)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("error %v\nwant it to contain %q", err, tt.want)
			}
		})
	}
}

// TestAttack_PathPatternSeesTheResolvedPath: a pattern on a path parameter
// is checked against what the program receives, so dot-dot and symlinks
// cannot carry a value past it.
func TestAttack_PathPatternSeesTheResolvedPath(t *testing.T) {
	opts := testOptions(t)
	w := opts.WorkDir
	if err := os.MkdirAll(filepath.Join(w, "docs"), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{".env", "docs/guide.md"} {
		if err := os.WriteFile(filepath.Join(w, f), []byte("x"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink("../.env", filepath.Join(w, "docs", "a.md")); err != nil {
		t.Fatal(err)
	}
	tool := oneTool(t, opts, `{"name": "read", "command": "cat -- {file}", "read_only": true,
	  "params": {"file": {"type": "path", "pattern": "docs/.*"}}}`)
	for _, bad := range []string{"docs/../.env", "docs/a.md", "./.env"} {
		_, err := tool.Expand(map[string]any{"file": bad})
		var ae *ArgError
		if !errors.As(err, &ae) || ae.Rule != "pattern" || !strings.Contains(ae.Msg, "resolves to .env") {
			t.Errorf("%q: %v", bad, err)
		}
	}
	cmd, err := tool.Expand(map[string]any{"file": "docs/guide.md"})
	if err != nil || cmd.Argv[2] != filepath.Join(w, "docs/guide.md") {
		t.Fatalf("inside the pattern: %q, %v", cmd.Argv, err)
	}
}
