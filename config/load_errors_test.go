package config

import (
	"strings"
	"testing"
)

func TestLoad_Errors(t *testing.T) {
	tests := []struct {
		name, file, text string
		want             string // exact prefix or substring of the error
	}{
		{"invalid json", "t.json", "[\n{\"name\": }", "t.json:2:10: invalid JSON"},
		{"not a tool list", "t.json", `"hello"`, "t.json:1:1: a tool file is a JSON array"},
		{"unknown top key", "t.json", `{"tools": [], "extra": 1}`, `t.json:1:15: unknown key "extra" in the tool file`},
		{"unknown tool key", "t.json", "[{\"name\": \"a\", \"command\": \"ls\",\n  \"comand\": \"x\"}]", `t.json:2:3: unknown key "comand" in tool "a"`},
		{"unknown param key", "t.json", `[{"name": "a", "command": "ls {x}", "params": {"x": {"typ": "string"}}}]`, `unknown key "typ" in params.x`},
		{"unknown settings key", "t.json", `{"settings": {"timeout": "1s", "colour": true}}`, `unknown key "colour" in settings`},
		{"duplicate key", "t.json", `[{"name": "a", "command": "ls", "command": "rm"}]`, `t.json:1:33: key "command" appears twice`},
		{"no name", "t.json", `[{"command": "ls"}]`, "tool has no name"},
		{"bad name", "t.json", `[{"name": "a b", "command": "ls"}]`, `"a b" is not a valid tool name`},
		{"no command", "t.json", `[{"name": "a"}]`, `tool "a": command: missing`},
		{"pipe points into the file", "t.json", "[\n  {\"name\": \"a\", \"command\": \"ls | sh\"}\n]", `t.json:2:32: tool "a": command: pipe "|"`},
		{"escaped position", "t.json", `[{"name": "a", "command": "echo \"x\" $HOME"}]`, `t.json:1:39: tool "a": command: variable expansion $HOME`},
		{"duplicate tool", "t.json", `[{"name": "a", "command": "ls"}, {"name": "a", "command": "ls"}]`, `tool "a" is already defined at t.json:1:2`},
		{"unused declaration", "t.json", `[{"name": "a", "command": "ls {dir}", "params": {"dri": {}}}]`, `params.dri: declared, but no template uses {dri} (placeholders used: [dir])`},
		{"declaration without placeholders", "t.json", `[{"name": "a", "command": "ls", "params": {"dir": {}}}]`, `t.json:1:51: tool "a": params.dir: declared, but no template uses {dir} (placeholders used: [])`},
		{"missing program", "t.json", `[{"name": "a", "command": "no-such-program-xyz"}]`, `program "no-such-program-xyz" is not installed`},
		{"relative program", "t.json", `[{"name": "a", "command": "./run.sh"}]`, "is a relative path"},
		{"placeholder program", "t.json", `[{"name": "a", "command": "{prog} -x"}]`, "must be fixed text"},
		{"shell without flag", "t.json", `[{"name": "a", "command": "sh -c {cmd}"}]`, `sh runs other programs or shell code`},
		{"env wrapper", "t.json", `[{"name": "a", "command": "env"}]`, `env runs other programs`},
		{"trailing semicolon", "t.json", `[{"name": "a", "command": "echo hi;"}]`, `t.json:1:35: tool "a": command: a ';' after the command ends it`},
		{"escaped backslash before the terminator", "t.json", `[{"name": "a", "command": "find . -exec grep -l x {} \\\\;"}]`, `t.json:1:58: tool "a": command: a ';' after the command ends it, as any list operator does; to pass ';' as an argument (find -exec … \;), write \; or ";"`},
		{"find exec shell", "t.json", `[{"name": "a", "command": "find . -exec sh -c {x} \\;"}]`, `find -exec runs sh`},
		{"find exec placeholder", "t.json", `[{"name": "a", "command": "find . -exec {x} \\;"}]`, `program chosen by a placeholder`},
		{"unknown type", "t.json", `[{"name": "a", "command": "ls {x}", "params": {"x": {"type": "file"}}}]`, `unknown type "file"`},
		{"enum without values", "t.json", `[{"name": "a", "command": "ls {x}", "params": {"x": {"type": "enum"}}}]`, `needs a non-empty "enum"`},
		{"bad pattern", "t.json", `[{"name": "a", "command": "ls {x}", "params": {"x": {"pattern": "(("}}}]`, "not a valid RE2 expression"},
		{"min above max", "t.json", `[{"name": "a", "command": "ls {x}", "params": {"x": {"type": "integer", "min": 5, "max": 1}}}]`, "min 5 is greater than max 1"},
		{"under on string", "t.json", `[{"name": "a", "command": "ls {x}", "params": {"x": {"under": ["."]}}}]`, "only applies to path parameters"},
		{"missing root", "t.json", `[{"name": "a", "command": "ls {x}", "params": {"x": {"type": "path", "under": ["nope"]}}}]`, "no such file or directory"},
		{"bad default", "t.json", `[{"name": "a", "command": "ls {x}", "params": {"x": {"type": "integer", "max": 3, "default": 9}}}]`, "default: 9 is above the maximum 3"},
		{"optional without default", "t.json", `[{"name": "a", "command": "ls {x}", "params": {"x": {"required": false}}}]`, "an optional parameter needs a default"},
		{"required with default", "t.json", `[{"name": "a", "command": "ls {x}", "params": {"x": {"required": true, "default": "."}}}]`, "a parameter with a default is optional"},
		{"bad flag", "t.json", `[{"name": "a", "command": "ls {x}", "params": {"x": {"flags": ["l"]}}}]`, `"l" is not an option token`},
		{"list and scalar", "t.json", `[{"name": "a", "command": "ls {x...} {x}"}]`, `t.json:1:27: tool "a": command: {x...} and {x} both appear`},
		{"list and scalar beside params", "t.json", `[{"name": "a", "command": "ls {x...} {x}", "params": {"x": {}}}]`, `t.json:1:27: tool "a": command: {x...} and {x} both appear`},
		{"list in stdin", "t.json", `[{"name": "a", "command": "cat", "stdin": "{x...}"}]`, "can only fill argv"},
		{"timeout too long", "t.json", `[{"name": "a", "command": "ls", "timeout": "1h"}]`, "timeout: 1h0m0s is outside [100ms, 5m0s]"},
		{"fractional milliseconds", "t.json", `[{"name": "a", "command": "ls", "timeout": 1.5}]`, `t.json:1:44: tool "a": timeout: want a positive number of milliseconds or a duration like "30s", got 1.5`},
		{"timeout too short", "t.json", `[{"name": "a", "command": "ls", "timeout": 10}]`, "is outside [100ms"},
		{"bad size", "t.json", `[{"name": "a", "command": "ls", "max_output": "lots"}]`, "want a positive size"},
		{"bad overflow", "t.json", `[{"name": "a", "command": "ls", "on_overflow": "explode"}]`, `want "drain" or "kill"`},
		{"control char in description", "t.json", `[{"name": "a", "description": "hi\u001b[2J", "command": "ls"}]`, "escape character"},
		{"bidi in command", "t.json", `[{"name": "a", "command": ["ls", "x\u202ey"]}]`, "bidirectional control"},
		{"bad env name", "t.json", `[{"name": "a", "command": "ls", "env": {"A-B": "x"}}]`, `"A-B" is not a valid variable name`},
		{"markdown list item", "t.md", "## a\n\n```\nls\n```\n\n- read only: true\n", `t.md:7:3: tool "a": list items set fields`},
		{"markdown unclosed fence", "t.md", "## a\n\n```\nls\n", "t.md:3:1: code block is never closed"},
		{"markdown list and scalar", "t.md", "## a\n\n```\nls {x...} {x}\n```\n", `t.md:4:1: tool "a": command: {x...} and {x} both appear`},
		{"markdown twice", "t.md", "## a\n\n```\nls\n```\n\n- timeout: 1s\n- timeout: 2s\n", "field timeout is set twice"},
		{"markdown command twice", "t.md", "## a\n\n```\nls\n```\n\n- command: rm\n", `t.md:7:3: tool "a": command is already given by the section's code block`},
		{"markdown shell construct", "t.md", "## a\n\nx\n\n```\nls; rm -rf /\n```\n", `t.md:6:5: tool "a": command: more than one command`},
		{"markdown named json", "t.json", "# Tools\n\n## a\n", "(a Markdown tool file needs a .md name)"},
		{"system command bad name", "t.json", `{"settings": {"system_command": {"allow": ["/bin/ls"]}}}`, "want a bare program name"},
		{"system command no allow", "t.json", `{"settings": {"system_command": {}}}`, "allow is required"},
		{"system command under empty", "t.json", `{"settings": {"system_command": {"allow": ["ls"], "under": []}}}`, "want at least one directory"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := load(t, testOptions(t), tt.file, tt.text)
			if err == nil {
				t.Fatalf("loaded without error; want %q", tt.want)
			}
			if !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("error %q\ndoes not contain %q", err, tt.want)
			}
		})
	}
}

func TestLoad_ReportsEveryError(t *testing.T) {
	_, err := load(t, testOptions(t), "t.json", `[{"name": "a", "command": "ls | x"}, {"name": "b", "command": "rm; x"}]`)
	if err == nil || !strings.Contains(err.Error(), `tool "a"`) || !strings.Contains(err.Error(), `tool "b"`) {
		t.Fatalf("want errors for both tools, got %v", err)
	}
}
