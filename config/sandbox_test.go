package config

import (
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
)

func sandboxFixture(t *testing.T) Options {
	t.Helper()
	opts := testOptions(t)
	for _, d := range []string{"src", "out", "extra", "docs", "bin"} {
		if err := os.Mkdir(filepath.Join(opts.WorkDir, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	files := map[string]string{
		"docs/readme.md": "x",
		// A script whose interpreter is a script, and one run through env.
		"bin/interp":  "#!/bin/sh\nexec cat\n",
		"bin/tool":    "#!" + filepath.Join(opts.WorkDir, "bin/interp") + " -x\n",
		"bin/envtool": "#!/usr/bin/env -u HOME interp\n",
	}
	for name, text := range files {
		if err := os.WriteFile(filepath.Join(opts.WorkDir, name), []byte(text), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	opts.PATH = filepath.Join(opts.WorkDir, "bin") + ":/usr/bin:/bin"
	return opts
}

func TestSandbox_SetsFromTheTemplate(t *testing.T) {
	opts := sandboxFixture(t)
	w := opts.WorkDir
	c := mustLoad(t, opts, "t.json", `[
	  {"name": "reader", "command": "cat -- {f}", "params": {"f": {"type": "path", "under": ["docs"]}}, "read_only": true},
	  {"name": "writer", "command": "tee -- {f}", "cwd": "src", "network": true,
	   "params": {"f": {"type": "path", "under": ["out"]}}, "sandbox": {"write": ["extra"], "read": ["docs/readme.md"]}},
	  {"name": "script", "command": "tool {x}", "read_only": true},
	  {"name": "viaenv", "command": "envtool", "read_only": true},
	  {"name": "anywhere", "command": "ls", "cwd": "{d}", "params": {"d": {"type": "string"}}},
	  {"name": "loose", "command": "ls", "read_only": true, "sandbox": false}
	]`)
	cat, _ := filepath.EvalSymlinks(c.Tool("reader").Program)
	tee, _ := filepath.EvalSymlinks(c.Tool("writer").Program)
	dash, _ := filepath.EvalSymlinks("/bin/sh")
	tests := []struct {
		tool         string
		read, write  []string
		network, yes bool
	}{
		{"reader", []string{w, cat}, nil, false, true},
		{"writer", []string{w + "/docs/readme.md", w + "/out", w + "/src", tee},
			[]string{w + "/extra", w + "/out", w + "/src"}, true, true},
		{"script", []string{w}, nil, false, true},
		{"viaenv", []string{w}, nil, false, true},
		{"anywhere", []string{"/"}, []string{"/"}, false, true},
		{"loose", []string{w, c.Tool("loose").Program}, nil, false, false},
	}
	for _, tt := range tests {
		sb, confined := c.Tool(tt.tool).Sandbox()
		if tt.tool == "script" {
			tt.read = []string{w, dash} // bin/tool and bin/interp lie in w
		}
		if tt.tool == "viaenv" {
			tt.read = []string{w, dash, "/usr/bin/env"}
			slices.Sort(tt.read)
		}
		if tt.tool == "loose" {
			ls, _ := filepath.EvalSymlinks(c.Tool("loose").Program)
			tt.read = []string{ls, w}
			slices.Sort(tt.read)
		}
		if !reflect.DeepEqual(sb.Read, tt.read) || !reflect.DeepEqual(sb.Write, tt.write) || sb.Network != tt.network || confined != tt.yes {
			t.Errorf("%s: sandbox %+v confined %v; want read %q write %q network %v confined %v",
				tt.tool, sb, confined, tt.read, tt.write, tt.network, tt.yes)
		}
	}
	cmd, err := c.Tool("writer").Expand(map[string]any{"f": "../out/a"})
	if err != nil || cmd.Sandbox == nil || !reflect.DeepEqual(cmd.Sandbox.Write, []string{w + "/extra", w + "/out", w + "/src"}) {
		t.Fatalf("writer command sandbox %+v, %v", cmd.Sandbox, err)
	}
	cmd.Sandbox.Write[0] = "/"
	if sb, _ := c.Tool("writer").Sandbox(); sb.Write[0] == "/" {
		t.Error("a command's sandbox shares the tool's")
	}
	if cmd, err := c.Tool("loose").Expand(nil); err != nil || cmd.Sandbox != nil {
		t.Errorf("sandbox: false gave %+v, %v", cmd.Sandbox, err)
	}
	var warned []string
	for _, wn := range c.Warnings {
		warned = append(warned, wn.Tool+": "+wn.Msg)
	}
	for _, want := range []string{`loose: "sandbox": false: its calls run unconfined`,
		`anywhere: cwd comes from {d}, a string, so it is not confined to a directory and the sandbox lets calls read and write everywhere ("/")`} {
		if !slices.ContainsFunc(warned, func(s string) bool { return strings.HasPrefix(s, want) }) {
			t.Errorf("no warning %q in %q", want, warned)
		}
	}
}

func TestSandbox_Settings(t *testing.T) {
	opts := sandboxFixture(t)
	for _, tt := range []struct {
		settings string
		confined bool
	}{{`{}`, true}, {`{"sandbox": "required"}`, true}, {`{"sandbox": "best-effort"}`, true}, {`{"sandbox": "off"}`, false}} {
		c := mustLoad(t, opts, "t.json", `{"settings": `+tt.settings+`, "tools": [{"name": "ls", "command": "ls", "read_only": true}]}`)
		cmd, err := c.Tool("ls").Expand(nil)
		if _, confined := c.Tool("ls").Sandbox(); err != nil || confined != tt.confined || (cmd.Sandbox != nil) != tt.confined {
			t.Errorf("settings %s: confined %v, command sandbox %+v, %v", tt.settings, confined, cmd.Sandbox, err)
		}
	}
	sc := mustLoad(t, opts, "sc.json", `{"settings": {"system_command": {"allow": ["tool", "ls"], "under": ["src"], "network": true}}}`).Tool(SystemCommandName)
	cmd, err := sc.Expand(map[string]any{"command": "tool"})
	dash, _ := filepath.EvalSymlinks("/bin/sh")
	w := opts.WorkDir
	if err != nil || cmd.Sandbox == nil || !cmd.Sandbox.Network || !reflect.DeepEqual(cmd.Sandbox.Write, []string{w + "/src"}) ||
		!reflect.DeepEqual(cmd.Sandbox.Read, []string{w + "/bin/interp", w + "/bin/tool", w + "/src", dash}) {
		t.Errorf("system_command sandbox %+v, %v", cmd.Sandbox, err)
	}
}

func TestSandbox_Refusals(t *testing.T) {
	opts := sandboxFixture(t)
	tests := []struct{ file, want string }{
		{`[{"name": "a", "command": "ls", "read_only": true, "sandbox": {"write": ["out"]}}]`, "a read_only tool writes nothing"},
		{`[{"name": "a", "command": "ls", "sandbox": {"read": ["missing"]}}]`, "sandbox.read: missing: no such file or directory"},
		{`[{"name": "a", "command": "ls", "sandbox": {"exec": ["bin"]}}]`, `unknown key "exec"`},
		{`[{"name": "a", "command": "ls", "sandbox": "none"}]`, `sandbox: want {"read": [...], "write": [...]} or false`},
		{`[{"name": "a", "command": "ls", "network": "yes"}]`, "network: want true or false"},
		{`{"settings": {"sandbox": "strict"}}`, `settings.sandbox: want "required", "best-effort" or "off", got "strict"`},
	}
	for _, tt := range tests {
		if _, err := load(t, opts, "t.json", tt.file); err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: %v, want %q", tt.file, err, tt.want)
		}
	}
}
