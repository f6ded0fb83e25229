package config

import (
	"path/filepath"
	"testing"
)

// TestArgError_ReadsAsASentence: a refusal either continues `parameter
// "p" …` ("is required") or, when its message is a clause of its own
// ("want a string, got a number", "11 is above the maximum 10"), follows
// a colon, as the seed's "Command not allowed: rm" does.
func TestArgError_ReadsAsASentence(t *testing.T) {
	opts := testOptions(t)
	c := mustLoad(t, opts, "tools.json", `{"tools": [
	  {"name": "typed", "command": "uname {i} {n} {s}", "params": {"i": {"type": "integer"},
	    "n": {"type": "number", "max": 10}, "s": {"secret": true, "type": "integer"}}},
	  {"name": "many", "command": "uname {items...}"},
	  {"name": "flag", "command": "uname {b}", "params": {"b": {"type": "boolean"}}},
	  {"name": "in", "command": "ls", "cwd": "{d}", "params": {"d": {"type": "string"}}},
	  {"name": "in_secret", "command": "ls", "cwd": "{d}", "params": {"d": {"type": "string", "secret": true}}}],
	  "settings": {"system_command": {"allow": ["ls"]}}}`)
	missing := filepath.Join(opts.WorkDir, "gone")
	tests := []struct {
		tool string
		args map[string]any
		want string
	}{
		// Clauses of their own: after a colon.
		{SystemCommandName, map[string]any{"command": "ls", "env": "LANG=C"},
			`tool "system_command": parameter "env": want an object of NAME: value strings, got a string`},
		{SystemCommandName, map[string]any{"command": "ls", "args": "-la"},
			`tool "system_command": parameter "args": want an array of strings, got a string`},
		{SystemCommandName, map[string]any{"command": "ls", "args": []any{1.0}},
			`tool "system_command": parameter "args": item 0: want a string, got a number`},
		{SystemCommandName, map[string]any{"command": "ls", "args": []any{"a\nb"}},
			`tool "system_command": parameter "args": item 0 contains newline (U+000A) at byte 1`},
		{SystemCommandName, map[string]any{"command": "ls", "timeout": 50.0},
			`tool "system_command": parameter "timeout": 50 is below the minimum 100`},
		{"typed", map[string]any{"i": "5", "n": 1.0, "s": 1.0}, `tool "typed": parameter "i": want a whole number, got a string`},
		{"typed", map[string]any{"i": 1.0, "n": 11.0, "s": 1.0}, `tool "typed": parameter "n": 11 is above the maximum 10`},
		{"many", map[string]any{"items": []any{}}, `tool "many": parameter "items": want at least one item`},
		{"flag", map[string]any{"b": "yes"}, `tool "flag": parameter "b": want true or false, got a string`},
		{"in", map[string]any{"d": missing},
			`tool "in": parameter "d": working directory ` + missing + ` is not an existing directory`},
		{"in_secret", map[string]any{"d": missing},
			`tool "in_secret": parameter "d": working directory is not an existing directory (the value is secret and not repeated)`},
		// Continuations of the sentence: no colon.
		{SystemCommandName, map[string]any{"command": "ls", "cwd": "/"},
			`tool "system_command": parameter "cwd" resolves to /, which is outside the allowed directories "` + opts.WorkDir + `"`},
		{"typed", map[string]any{"n": 1.0, "s": 1.0}, `tool "typed": parameter "i" is required (integer)`},
		{"typed", map[string]any{"i": 1.0, "n": 1.0, "s": "x"},
			`tool "typed": parameter "s" has the wrong type (want integer; the value is secret and not repeated)`},
		{SystemCommandName, map[string]any{"command": "ls", "env": map[string]any{"TZ": "UTC"}},
			`tool "system_command": parameter "env" may not set TZ: system_command sets only the variables listed in settings.system_command.env (none are)`},
	}
	for _, tt := range tests {
		t.Run(tt.want, func(t *testing.T) {
			_, err := c.Tool(tt.tool).Expand(tt.args)
			if err == nil || err.Error() != tt.want {
				t.Errorf("refusal\n %v\nwant\n %s", err, tt.want)
			}
		})
	}
}
