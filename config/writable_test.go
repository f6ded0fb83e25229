package config

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func TestCheckProtected_RefusesFilesToolsCanWrite(t *testing.T) {
	opts := testOptions(t)
	wd := opts.WorkDir
	for _, d := range []string{"src", "out", "state"} {
		if err := os.Mkdir(filepath.Join(wd, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	// A symlink into the writable root must not hide a file inside it.
	if err := os.Symlink(filepath.Join(wd, "out"), filepath.Join(wd, "state", "link")); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name  string
		tools string
		file  string
		want  string // "" means accepted
	}{
		{name: "read-only tools write nowhere",
			tools: `[{"name": "cat", "command": "cat -- {p}", "params": {"p": {"type": "path"}}, "read_only": true}]`,
			file:  "tools.json"},
		{name: "path parameter root",
			tools: `[{"name": "write", "command": "tee -- {p}", "params": {"p": {"type": "path", "under": ["out"]}}, "cwd": "out"}]`,
			file:  "out/tools.json", want: `lies under ` + wd + `/out, where tool "write" (path parameter {p})`},
		{name: "outside the path root",
			tools: `[{"name": "write", "command": "tee -- {p}", "params": {"p": {"type": "path", "under": ["out"]}}, "cwd": "out"}]`,
			file:  "src/tools.json"},
		{name: "through a symlink",
			tools: `[{"name": "write", "command": "tee -- {p}", "params": {"p": {"type": "path", "under": ["out"]}}, "cwd": "out"}]`,
			file:  "state/link/journal.jsonl", want: `journal ` + wd + `/out/journal.jsonl lies under`},
		{name: "default working directory",
			tools: `[{"name": "make", "command": "make", "shell": true}]`,
			file:  "state/remembered.json", want: `where tool "make" (working directory) may write`},
		{name: "fixed working directory elsewhere",
			tools: `[{"name": "make", "command": "make", "shell": true, "cwd": "src"}]`,
			file:  "state/remembered.json"},
		{name: "working directory from a string placeholder",
			tools: `[{"name": "make", "command": "make", "shell": true, "cwd": "{dir}", "params": {"dir": {"type": "string"}}}]`,
			file:  "/etc/assent.json", want: `lies under /, where tool "make" (working directory from {dir}, which is not a path) may write`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			c := mustLoad(t, opts, "tools.json", tc.tools)
			path := tc.file
			if !filepath.IsAbs(path) {
				path = filepath.Join(wd, path)
			}
			err := c.CheckProtected(ProtectedFile{What: "journal", Path: path})
			switch {
			case tc.want == "" && err != nil:
				t.Fatalf("refused: %v", err)
			case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
				t.Fatalf("err = %v, want it to contain %q", err, tc.want)
			}
		})
	}
}

func TestWritableRoots_SystemCommandCountsItsCwdRoots(t *testing.T) {
	opts := testOptions(t)
	if err := os.Mkdir(filepath.Join(opts.WorkDir, "box"), 0o755); err != nil {
		t.Fatal(err)
	}
	c := mustLoad(t, opts, "tools.json", `{"settings": {"system_command": {"allow": ["ls"], "under": ["box"]}}}`)
	roots := c.WritableRoots()
	if len(roots) != 1 || roots[0].Dir != filepath.Join(opts.WorkDir, "box") || roots[0].Tool != SystemCommandName {
		t.Fatalf("roots %+v", roots)
	}
}

// What a tool's sandbox.write adds is a write root like any other: a
// protected file there is refused.
func TestCheckProtected_SandboxWrite(t *testing.T) {
	dir := t.TempDir()
	extra := filepath.Join(dir, "extra")
	if err := os.Mkdir(extra, 0o755); err != nil {
		t.Fatal(err)
	}
	cfg, err := Load(Options{WorkDir: "/usr", PATH: "/usr/bin:/bin"}, Source{Name: "t.json", Data: []byte(
		`[{"name": "w", "command": "true", "cwd": "/usr", "sandbox": {"write": ["` + extra + `"]}}]`)})
	if err != nil {
		t.Fatal(err)
	}
	err = cfg.CheckProtected(ProtectedFile{What: "journal", Path: filepath.Join(extra, "journal.jsonl")})
	if err == nil || !strings.Contains(err.Error(), "sandbox.write") {
		t.Errorf("a journal under sandbox.write: %v", err)
	}
}

// Where the protected-files check says a tool can write is where its
// sandbox lets it write: both come from one list made at load.
func TestWritableRoots_AreTheSandboxWriteSets(t *testing.T) {
	opts := sandboxFixture(t)
	c := mustLoad(t, opts, "t.json", `{"tools": [
	  {"name": "reader", "command": "cat -- {f}", "params": {"f": {"type": "path", "under": ["docs"]}}, "read_only": true},
	  {"name": "writer", "command": "tee -- {f} {g}", "cwd": "src",
	   "params": {"f": {"type": "path", "under": ["out", "docs"]}, "g": {"type": "path", "under": ["out"]}}, "sandbox": {"write": ["extra"]}},
	  {"name": "here", "command": "touch x"},
	  {"name": "pathcwd", "command": "ls", "cwd": "{d}", "params": {"d": {"type": "path", "under": ["src"]}}},
	  {"name": "anywhere", "command": "ls", "cwd": "{d}", "params": {"d": {"type": "string"}}}
	], "settings": {"system_command": {"allow": ["ls"], "under": ["out", "src"]}}}`)
	byTool := map[string][]string{}
	for _, r := range c.WritableRoots() {
		byTool[r.Tool] = append(byTool[r.Tool], r.Dir)
	}
	for _, tool := range c.Tools {
		sb, _ := tool.Sandbox()
		want := tidyPaths(byTool[tool.Name])
		if !slices.Equal(sb.Write, want) {
			t.Errorf("%s: sandbox writes %q, WritableRoots say %q", tool.Name, sb.Write, want)
		}
		if tool.Name != "reader" && len(want) == 0 {
			t.Errorf("%s: no write roots", tool.Name)
		}
	}
	sys, err := c.Tool(SystemCommandName).Expand(map[string]any{"command": "ls"})
	if err != nil {
		t.Fatal(err)
	}
	if w := opts.WorkDir; !slices.Equal(sys.Sandbox.Write, []string{w + "/out", w + "/src"}) {
		t.Errorf("a system_command call writes %q", sys.Sandbox.Write)
	}
}
