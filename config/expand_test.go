package config

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
)

func TestExpand_SeedCommands(t *testing.T) {
	opts := testOptions(t)
	if err := os.WriteFile(filepath.Join(opts.WorkDir, "notes.txt"), []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name, tool string
		args       map[string]any
		want       []string
	}{
		{"cat", `{"name": "read_file", "command": "cat {filename}"}`,
			map[string]any{"filename": "notes.txt"}, []string{"cat", "notes.txt"}},
		{"grep", `{"name": "grep_search", "command": "grep -r {pattern} {path}"}`,
			map[string]any{"pattern": "a b; rm -rf /", "path": "."}, []string{"grep", "-r", "a b; rm -rf /", "."}},
		{"date", `{"name": "date_now", "command": "date +{format}"}`,
			map[string]any{"format": "%a %b %e %H:%M:%S %Z %Y "}, []string{"date", "+%a %b %e %H:%M:%S %Z %Y "}},
		{"date leading dash stays inside the word", `{"name": "date_now", "command": "date +{format}"}`,
			map[string]any{"format": "-%s"}, []string{"date", "+-%s"}},
		{"uname", `{"name": "get_info", "command": "uname -a"}`, map[string]any{}, []string{"uname", "-a"}},
		{"ls", `{"name": "list_files", "command": "ls -la {directory}"}`,
			map[string]any{"directory": "$(reboot)"}, []string{"ls", "-la", "$(reboot)"}},
		{"find exec", `{"name": "file_glob_search", "command": "find /search/path/ -maxdepth 2 -type f -name \"pattern*\" -exec grep -l \"{pattern}\" {} \\;"}`,
			map[string]any{"pattern": "TODO `id`"},
			[]string{"find", "/search/path/", "-maxdepth", "2", "-type", "f", "-name", "pattern*", "-exec", "grep", "-l", "TODO `id`", "{}", ";"}},
		{"sh -c with shell: true", `{"name": "exec_shell_command", "command": "sh -c {command}", "shell": true}`,
			map[string]any{"command": "echo hi | wc -c"}, []string{"sh", "-c", "echo hi | wc -c"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cmd, err := oneTool(t, opts, tt.tool).Expand(tt.args)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(cmd.Argv, tt.want) {
				t.Fatalf("argv %q, want %q", cmd.Argv, tt.want)
			}
			if !filepath.IsAbs(cmd.Path) || filepath.Base(cmd.Path) != tt.want[0] {
				t.Fatalf("program path %q", cmd.Path)
			}
			if err := cmd.Validate(); err != nil {
				t.Fatal(err)
			}
		})
	}
}

func TestExpand_Types(t *testing.T) {
	opts := testOptions(t)
	tool := oneTool(t, opts, `{"name": "t", "command": ["uname", "{s}", "{i}", "{n}", "{b}", "{e}", "{l...}"],
	  "params": {
	    "s": {"type": "string", "pattern": "[a-z ]+", "max_length": 10, "default": "abc"},
	    "i": {"type": "integer", "min": -5, "max": 100, "default": 7},
	    "n": {"type": "number", "min": 0, "default": 0.5},
	    "b": {"type": "boolean", "default": false},
	    "e": {"type": "enum", "enum": ["fast", "-s", "slow"], "default": "fast"},
	    "l": {"type": "string", "required": false}
	  }}`)
	tests := []struct {
		name string
		args string
		want []string
	}{
		{"defaults", `{}`, []string{"uname", "abc", "7", "0.5", "false", "fast"}},
		{"values", `{"s": "a b", "i": 42, "n": 1e3, "b": true, "e": "slow", "l": ["x", "y z"]}`,
			[]string{"uname", "a b", "42", "1000", "true", "slow", "x", "y z"}},
		{"integral float is an integer", `{"i": 3.0}`, []string{"uname", "abc", "3", "0.5", "false", "fast"}},
		{"negative integer allowed by min", `{"i": -5}`, []string{"uname", "abc", "-5", "0.5", "false", "fast"}},
		{"operator's enum value may start with a dash", `{"e": "-s"}`, []string{"uname", "abc", "7", "0.5", "false", "-s"}},
		{"empty list gives no words", `{"l": []}`, []string{"uname", "abc", "7", "0.5", "false", "fast"}},
		{"small number", `{"n": 0.000001}`, []string{"uname", "abc", "7", "0.000001", "false", "fast"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var args map[string]any
			if err := json.Unmarshal([]byte(tt.args), &args); err != nil {
				t.Fatal(err)
			}
			cmd, err := tool.Expand(args)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(cmd.Argv, tt.want) {
				t.Fatalf("argv %q, want %q", cmd.Argv, tt.want)
			}
		})
	}
}

func TestExpand_JSONNumberValues(t *testing.T) {
	tool := oneTool(t, testOptions(t), `{"name": "t", "command": "uname {i} {n}", "params": {"i": {"type": "integer"}, "n": {"type": "number"}}}`)
	cmd, err := tool.Expand(map[string]any{"i": json.Number("12"), "n": json.Number("2.50")})
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"uname", "12", "2.5"}; !reflect.DeepEqual(cmd.Argv, want) {
		t.Fatalf("argv %q, want %q", cmd.Argv, want)
	}
}

func TestExpand_CwdEnvStdin(t *testing.T) {
	opts := testOptions(t)
	sub := filepath.Join(opts.WorkDir, "sub")
	if err := os.Mkdir(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	tool := oneTool(t, opts, `{"name": "w", "command": "tee -- {file}", "cwd": "{dir}", "env": {"TAG": "v{n}"},
	  "stdin": "{content}", "params": {"file": {"type": "path"}, "n": {"type": "integer"}}}`)
	if p := tool.Param("dir"); p.Type != Path {
		t.Errorf("cwd placeholder has type %s, want path", p.Type)
	}
	if p := tool.Param("content"); !p.Multiline {
		t.Error("a stdin-only placeholder is not multiline")
	}
	e, err := tool.Prepare(map[string]any{"file": "sub/out.txt", "dir": "sub", "n": 3, "content": "line 1\nline 2\r\n\ttabbed"})
	if err != nil {
		t.Fatal(err)
	}
	cmd := e.Command
	if cmd.Dir != sub {
		t.Errorf("dir %q, want %q", cmd.Dir, sub)
	}
	if want := filepath.Join(sub, "out.txt"); cmd.Argv[2] != want {
		t.Errorf("path argument %q, want %q", cmd.Argv[2], want)
	}
	if !reflect.DeepEqual(cmd.Env, []string{"TAG=v3"}) || cmd.Stdin != "line 1\nline 2\r\n\ttabbed" {
		t.Errorf("env %q stdin %q", cmd.Env, cmd.Stdin)
	}
	if !reflect.DeepEqual(e.Values["n"], []string{"3"}) || !reflect.DeepEqual(e.Values["dir"], []string{sub}) {
		t.Errorf("values %q", e.Values)
	}
	_, err = tool.Expand(map[string]any{"file": "x", "dir": "missing", "n": 1, "content": ""})
	var ae *ArgError
	if !errors.As(err, &ae) || ae.Rule != "path" && ae.Rule != "cwd" {
		t.Fatalf("missing cwd: %v", err)
	}
}

func TestExpand_Secrets(t *testing.T) {
	tool := oneTool(t, testOptions(t), `{"name": "login", "command": "uname --token={token} {user}", "params": {"token": {"secret": true}}}`)
	e, err := tool.Prepare(map[string]any{"token": "hunter2", "user": "bob"})
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(e.Secrets, []string{"hunter2"}) {
		t.Fatalf("secrets %q", e.Secrets)
	}
}

func TestExpand_SystemCommand(t *testing.T) {
	opts := testOptions(t)
	c := mustLoad(t, opts, "sc.json", `{"settings": {"system_command": {"allow": ["ls", "grep", "env", "no-such-tool-xyz"], "env": ["LC_ALL"]}}}`)
	tool := c.Tool(SystemCommandName)
	if tool == nil || !tool.Shell {
		t.Fatalf("system_command = %+v, want a shell-class tool", tool)
	}
	e, err := tool.Prepare(map[string]any{"command": "grep", "args": []any{"-r", "TODO", "."}, "cwd": ".",
		"env": map[string]any{"LC_ALL": "C"}, "timeout": 5000.0, "stdin": "a\nb"})
	if err != nil {
		t.Fatal(err)
	}
	cmd := e.Command
	if !reflect.DeepEqual(cmd.Argv, []string{"grep", "-r", "TODO", "."}) || cmd.Dir != opts.WorkDir ||
		!reflect.DeepEqual(cmd.Env, []string{"LC_ALL=C"}) || cmd.Timeout.Milliseconds() != 5000 || cmd.Stdin != "a\nb" {
		t.Fatalf("command %+v", cmd)
	}
	if cmd.Path != "/usr/bin/grep" && cmd.Path != "/bin/grep" {
		t.Fatalf("path %q", cmd.Path)
	}
	refusals := []struct {
		args       map[string]any
		rule, text string
	}{
		{map[string]any{"command": "rm", "args": []any{"-rf", "/"}}, "not-allowed", "Command not allowed: rm"},
		{map[string]any{"command": "rm\x1b[2J"}, "not-allowed", `Command not allowed: "rm\x1b[2J"`},
		{map[string]any{"command": "no-such-tool-xyz"}, "unavailable", "Command not available on this machine"},
		{map[string]any{}, "missing", "is required"},
		{map[string]any{"command": "ls", "args": "-la"}, "type", "want an array of strings"},
		{map[string]any{"command": "ls", "args": []any{"a\nb"}}, "text", "item 0 contains newline"},
		{map[string]any{"command": "ls", "cwd": "/"}, "path", "outside the allowed directories"},
		{map[string]any{"command": "ls", "env": map[string]any{"LD_PRELOAD": "/x.so"}}, "env", "may not set LD_PRELOAD"},
		{map[string]any{"command": "ls", "env": map[string]any{"GIT_DIR": "/x"}}, "env", "may not set GIT_DIR"},
		{map[string]any{"command": "ls", "timeout": 50.0}, "range", "below the minimum 100"},
		{map[string]any{"command": "ls", "timeout": 300001.0}, "range", "above the maximum 300000"},
		{map[string]any{"command": "ls", "shell": true}, "unknown", `has no parameter "shell"`},
	}
	for _, r := range refusals {
		_, err := tool.Expand(r.args)
		var ae *ArgError
		if !errors.As(err, &ae) || ae.Rule != r.rule || !strings.Contains(err.Error(), r.text) {
			t.Errorf("Expand(%v) = %v, want rule %s mentioning %q", r.args, err, r.rule, r.text)
		}
	}
}

func TestExpand_SecretValuesAreNotRepeated(t *testing.T) {
	tool := oneTool(t, testOptions(t), `{"name": "s", "command": "uname --pin={pin} {key}",
	  "params": {"pin": {"type": "number", "max": 10, "secret": true}, "key": {"type": "path", "secret": true}}}`)
	for _, args := range []map[string]any{
		{"pin": 1e21, "key": "."},
		{"pin": "1e21", "key": "."},
		{"pin": 1, "key": "/etc/1e21"},
	} {
		_, err := tool.Expand(args)
		if err == nil || strings.Contains(err.Error(), "1e21") || strings.Contains(err.Error(), "1e+21") ||
			strings.Contains(err.Error(), "1000000000000000000000") || !strings.Contains(err.Error(), "secret and not repeated") {
			t.Errorf("Expand(%v) = %v", args, err)
		}
	}
	e, err := tool.Prepare(map[string]any{"pin": 2.5, "key": "."})
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"2.5"} {
		if !slices.Contains(e.Secrets, want) {
			t.Errorf("secrets %q lack %q", e.Secrets, want)
		}
	}
	if got := SecretTexts(1e21); !slices.Contains(got, "1e+21") || !slices.Contains(got, "1000000000000000000000") {
		t.Errorf("SecretTexts(1e21) = %q", got)
	}
}

func TestExpand_SystemCommandDefaultCwdIsInsideUnder(t *testing.T) {
	opts := testOptions(t)
	sub := filepath.Join(opts.WorkDir, "sub")
	if err := os.Mkdir(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	c := mustLoad(t, opts, "sc.json", `{"settings": {"system_command": {"allow": ["ls"], "under": ["sub"]}}}`)
	cmd, err := c.Tool(SystemCommandName).Expand(map[string]any{"command": "ls"})
	if err != nil || cmd.Dir != sub {
		t.Fatalf("dir %q, %v; want %q", cmd.Dir, err, sub)
	}
}
