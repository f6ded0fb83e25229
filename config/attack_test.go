package config

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// attackFixture builds a directory tree with the classic escapes: a
// sibling whose name extends the root's, symlinks out of the root,
// a dangling symlink whose target lies outside, and a symlink loop.
func attackFixture(t *testing.T) Options {
	t.Helper()
	opts := testOptions(t)
	w := opts.WorkDir
	for _, d := range []string{"proj/sub", "proj-evil", "outside"} {
		if err := os.MkdirAll(filepath.Join(w, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for _, f := range []string{"proj/a.txt", "proj-evil/x.txt", "outside/secret"} {
		if err := os.WriteFile(filepath.Join(w, f), []byte("x"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	links := map[string]string{
		"proj/link-out":  "/etc",
		"proj/link-in":   "sub",
		"proj/dangling":  "../outside/new-file",
		"proj/sub/up":    "../../outside",
		"proj/loop1":     "loop2",
		"proj/loop2":     "loop1",
		"proj/abs-in":    filepath.Join(w, "proj/sub"),
		"proj/chain":     "link-in/../../outside",
		"proj/dang-in":   "sub/not-yet",
		"proj/dang-deep": "gone/../../outside/x",
	}
	for name, target := range links {
		if err := os.Symlink(target, filepath.Join(w, name)); err != nil {
			t.Fatal(err)
		}
	}
	return opts
}

// TestAttack_Values feeds hostile values to tools and checks the exact
// refusal: the rule broken, the parameter named and the reason given.
func TestAttack_Values(t *testing.T) {
	opts := attackFixture(t)
	c := mustLoad(t, opts, "attack.json", `[
	  {"name": "text", "command": "uname {v}"},
	  {"name": "flagged", "command": "uname {opt} -- {v}", "params": {"opt": {"flags": ["-i", "--ignore-case"]}}},
	  {"name": "file", "command": "cat -- {path}", "params": {"path": {"type": "path", "under": ["proj"]}}},
	  {"name": "typed", "command": "uname {i} {n} {e} {s}", "params": {
	      "i": {"type": "integer", "max": 100}, "n": {"type": "number", "max": 10},
	      "e": {"type": "enum", "enum": ["a", "b"]}, "s": {"pattern": "[a-z]+"}}},
	  {"name": "many", "command": "uname {items...}"},
	  {"name": "finder", "command": "find {start} -name x"},
	  {"name": "big", "command": "uname {v}", "params": {"v": {"multiline": true}}}
	]`)
	long := strings.Repeat("a", DefaultMaxLength+1)
	hundredK := strings.Repeat("b", 130<<10)
	manyItems := make([]any, 5000)
	for i := range manyItems {
		manyItems[i] = "x"
	}
	tests := []struct {
		name, tool string
		args       map[string]any
		param      string
		rule       string
		msg        string
	}{
		// Option injection: no abbreviation or spelling gets through.
		{"long option", "text", map[string]any{"v": "--output=/etc/passwd"}, "v", "option", "starts with '-'"},
		{"git upload-pack abbreviation", "text", map[string]any{"v": "--upload-p=touch /tmp/x"}, "v", "option", "would read it as an option"},
		{"tar checkpoint abbreviation", "text", map[string]any{"v": "--checkpoint-act=exec=sh"}, "v", "option", "starts with '-'"},
		{"date file abbreviation", "text", map[string]any{"v": "--fil=/etc/shadow"}, "v", "option", "starts with '-'"},
		{"short options", "text", map[string]any{"v": "-rf"}, "v", "option", "this parameter takes no options"},
		{"lone dash", "text", map[string]any{"v": "-"}, "v", "option", "starts with '-'"},
		{"double dash", "text", map[string]any{"v": "--"}, "v", "option", "starts with '-'"},
		{"unlisted flag", "flagged", map[string]any{"opt": "-v", "v": "x"}, "opt", "option", `the only options allowed here are "-i", "--ignore-case"`},
		{"listed flag with a value", "flagged", map[string]any{"opt": "--ignore-case=x", "v": "x"}, "opt", "option", "the only options allowed"},
		{"abbreviated listed flag", "flagged", map[string]any{"opt": "--ignore", "v": "x"}, "opt", "option", "the only options allowed"},
		{"flag in the wrong slot", "flagged", map[string]any{"opt": "-i", "v": "-i"}, "v", "option", "takes no options"},
		{"negative number without a negative minimum", "typed", map[string]any{"i": -1, "n": 1, "e": "a", "s": "x"}, "i", "option", "starts with '-'"},
		{"list item option", "many", map[string]any{"items": []any{"ok", "-rf"}}, "items", "option", "starts with '-'"},
		// Characters that hide or control the terminal.
		{"newline", "text", map[string]any{"v": "a\nb"}, "v", "text", "contains newline (U+000A) at byte 1; this parameter takes a single line"},
		{"carriage return", "text", map[string]any{"v": "ok\r-rf"}, "v", "text", "carriage return"},
		{"tab", "text", map[string]any{"v": "a\tb"}, "v", "text", "tab"},
		{"escape sequence", "text", map[string]any{"v": "\x1b[2Jls"}, "v", "text", "escape character (U+001B)"},
		{"NUL", "text", map[string]any{"v": "a\x00b"}, "v", "text", "NUL"},
		{"bell", "text", map[string]any{"v": "\a"}, "v", "text", "control character"},
		{"DEL", "text", map[string]any{"v": "a\x7f"}, "v", "text", "control character"},
		{"C1 NEL", "text", map[string]any{"v": "a\u0085b"}, "v", "text", "C1 control character"},
		{"C1 CSI", "text", map[string]any{"v": "\u009b2J"}, "v", "text", "C1 control character"},
		{"RLO override", "text", map[string]any{"v": "txt\u202eexe.sh"}, "v", "text", "bidirectional control (U+202E)"},
		{"LRI isolate", "text", map[string]any{"v": "\u2066x"}, "v", "text", "bidirectional control (U+2066)"},
		{"RLM mark", "text", map[string]any{"v": "x\u200f"}, "v", "text", "bidirectional control"},
		{"zero-width space", "text", map[string]any{"v": "r\u200bm"}, "v", "text", "zero-width character (U+200B)"},
		{"zero-width joiner", "text", map[string]any{"v": "a\u200db"}, "v", "text", "zero-width character"},
		{"byte order mark", "text", map[string]any{"v": "\ufeffx"}, "v", "text", "zero-width character (U+FEFF)"},
		{"soft hyphen", "text", map[string]any{"v": "a\u00adb"}, "v", "text", "invisible format character (U+00AD)"},
		{"tag character", "text", map[string]any{"v": "a\U000E0041"}, "v", "text", "invisible format character"},
		{"line separator", "text", map[string]any{"v": "a\u2028b"}, "v", "text", "line separator"},
		{"invalid UTF-8", "text", map[string]any{"v": "a\xffb"}, "v", "text", "invalid UTF-8 at byte 1"},
		// Paths that leave their root.
		{"parent directories", "file", map[string]any{"path": "proj/../../../etc/passwd"}, "path", "path", "outside the allowed directories"},
		{"absolute outside", "file", map[string]any{"path": "/etc/passwd"}, "path", "path", "resolves to /etc/passwd, which is outside"},
		{"sibling prefix", "file", map[string]any{"path": "proj-evil/x.txt"}, "path", "path", "proj-evil/x.txt, which is outside"},
		{"dot-dot to sibling", "file", map[string]any{"path": "proj/../proj-evil"}, "path", "path", "outside"},
		{"symlink out", "file", map[string]any{"path": "proj/link-out/passwd"}, "path", "path", "resolves to /etc/passwd"},
		{"symlink in a subdirectory", "file", map[string]any{"path": "proj/sub/up/secret"}, "path", "path", "outside/secret, which is outside"},
		{"dangling symlink out", "file", map[string]any{"path": "proj/dangling"}, "path", "path", "outside/new-file, which is outside"},
		{"symlink chain out", "file", map[string]any{"path": "proj/chain/secret"}, "path", "path", "outside"},
		{"dangling through missing dir", "file", map[string]any{"path": "proj/dang-deep"}, "path", "path", "outside"},
		{"symlink loop", "file", map[string]any{"path": "proj/loop1"}, "path", "path", "too many levels of symbolic links"},
		{"file as a directory", "file", map[string]any{"path": "proj/a.txt/x"}, "path", "path", "not a directory"},
		{"tilde is not home", "file", map[string]any{"path": "~/.ssh/id_rsa"}, "path", "path", "/~/.ssh/id_rsa, which is outside"},
		// find reads "!" and "(" as expression, not a starting point.
		{"find negation", "finder", map[string]any{"start": "!"}, "start", "find-operand", "part of its expression"},
		{"find group", "finder", map[string]any{"start": "("}, "start", "find-operand", "part of its expression"},
		{"find comma", "finder", map[string]any{"start": ","}, "start", "find-operand", "part of its expression"},
		// Strict inputs.
		{"too long", "text", map[string]any{"v": long}, "v", "length", "is 4097 characters long; the limit is 4096"},
		{"string for integer", "typed", map[string]any{"i": "5", "n": 1, "e": "a", "s": "x"}, "i", "type", "want a whole number, got a string"},
		{"fraction for integer", "typed", map[string]any{"i": 3.5, "n": 1, "e": "a", "s": "x"}, "i", "type", "want a whole number, got 3.5"},
		{"huge integer", "typed", map[string]any{"i": 1e300, "n": 1, "e": "a", "s": "x"}, "i", "type", "want a whole number"},
		{"number over max", "typed", map[string]any{"i": 1, "n": 11, "e": "a", "s": "x"}, "n", "range", "11 is above the maximum 10"},
		{"integer over max", "typed", map[string]any{"i": 101, "n": 1, "e": "a", "s": "x"}, "i", "range", "above the maximum 100"},
		{"not in enum", "typed", map[string]any{"i": 1, "n": 1, "e": "c", "s": "x"}, "e", "enum", `must be one of "a", "b"`},
		{"pattern mismatch", "typed", map[string]any{"i": 1, "n": 1, "e": "a", "s": "x;y"}, "s", "pattern", "does not match the pattern [a-z]+"},
		{"pattern is anchored", "typed", map[string]any{"i": 1, "n": 1, "e": "a", "s": "ok ../x"}, "s", "pattern", "does not match"},
		{"unknown argument", "text", map[string]any{"v": "x", "shell": "sh"}, "", "unknown", `has no parameter "shell" (its parameters: v)`},
		{"missing required", "text", map[string]any{}, "v", "missing", "is required (string)"},
		{"null for required", "text", map[string]any{"v": nil}, "v", "missing", "is required"},
		{"array for scalar", "text", map[string]any{"v": []any{"a", "b"}}, "v", "type", "want a string, got an array"},
		{"object for scalar", "text", map[string]any{"v": map[string]any{"a": 1}}, "v", "type", "want a string, got an object"},
		{"scalar for list", "many", map[string]any{"items": "a b"}, "items", "type", "want an array of string values, got a string"},
		{"empty required list", "many", map[string]any{"items": []any{}}, "items", "missing", "want at least one item"},
		{"oversize argument", "big", map[string]any{"v": hundredK}, "", "size", "argument 1 would be 133120 bytes, over the limit of 131071 bytes per argument"},
		{"too many arguments", "many", map[string]any{"items": manyItems}, "", "size", "would exceed the limit of 4096 arguments (it has 5001)"},
	}
	if len(tests) < 40 {
		t.Fatalf("attack table has only %d entries", len(tests))
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cmd, err := c.Tool(tt.tool).Expand(tt.args)
			var ae *ArgError
			if !errors.As(err, &ae) {
				t.Fatalf("Expand accepted hostile input: argv %q (err %v)", cmd.Argv, err)
			}
			if ae.Tool != tt.tool || ae.Param != tt.param || ae.Rule != tt.rule || !strings.Contains(ae.Msg, tt.msg) {
				t.Fatalf("refusal %+v\nwant tool %q param %q rule %q message containing %q", ae, tt.tool, tt.param, tt.rule, tt.msg)
			}
			if !strings.HasPrefix(err.Error(), `tool "`+tt.tool+`": `) {
				t.Fatalf("error %q does not start by naming the tool", err)
			}
		})
	}
}

// TestAttack_PassesAsOneWord shows that shell syntax in a value is just
// text: it reaches the program as exactly one argument.
func TestAttack_PassesAsOneWord(t *testing.T) {
	opts := attackFixture(t)
	tool := oneTool(t, opts, `{"name": "echo", "command": "uname -- {v} end"}`)
	for _, v := range []string{"$(reboot)", "`id`", "a; rm -rf /", "x | sh", "* ?", "~root", "{a,b}", "$HOME",
		"'quoted'", `"dq"`, `back\slash`, "a b  c", "", "!", ">out", "<(ls)", "&& true", "%n%n%s"} {
		cmd, err := tool.Expand(map[string]any{"v": v})
		if err != nil {
			t.Errorf("%q refused: %v", v, err)
			continue
		}
		if len(cmd.Argv) != 4 || cmd.Argv[2] != v {
			t.Errorf("%q became argv %q", v, cmd.Argv)
		}
	}
}

// TestAttack_PathsInside shows resolved paths inside the root pass, as the
// resolved path.
func TestAttack_PathsInside(t *testing.T) {
	opts := attackFixture(t)
	tool := oneTool(t, opts, `{"name": "file", "command": "cat -- {path}", "params": {"path": {"type": "path", "under": ["proj"]}}}`)
	proj := filepath.Join(opts.WorkDir, "proj")
	for in, want := range map[string]string{
		"proj":                  proj,
		"proj/a.txt":            proj + "/a.txt",
		"proj/link-in":          proj + "/sub",
		"proj/abs-in/new":       proj + "/sub/new",
		"proj/dang-in":          proj + "/sub/not-yet",
		"proj/sub/../a.txt":     proj + "/a.txt",
		"proj/new-dir/new-file": proj + "/new-dir/new-file",
		proj + "/./sub":         proj + "/sub",
		"proj/-rf":              proj + "/-rf",
	} {
		cmd, err := tool.Expand(map[string]any{"path": in})
		if err != nil {
			t.Errorf("%q refused: %v", in, err)
			continue
		}
		if got := cmd.Argv[2]; got != want {
			t.Errorf("%q resolved to %q, want %q", in, got, want)
		}
	}
}

// TestAttack_ToolFiles loads hostile tool files: each must be refused with
// a message that says what was found and where.
