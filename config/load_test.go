package config

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"
)

func TestLoad_SeedArrayUnchanged(t *testing.T) {
	opts := testOptions(t)
	data, err := os.ReadFile("../examples/TOOLS.json")
	if err != nil {
		t.Fatal(err)
	}
	c, err := Load(opts, Source{Name: "TOOLS.json", Data: data})
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tl := range c.Tools {
		names = append(names, tl.Name)
	}
	if want := []string{"get_ip", "list_files", "date_now"}; !reflect.DeepEqual(names, want) {
		t.Fatalf("tools %v, want %v", names, want)
	}
	date := c.Tool("date_now")
	if date.Program != "/usr/bin/date" && date.Program != "/bin/date" {
		t.Errorf("date resolved to %q", date.Program)
	}
	p := date.Param("format")
	if p == nil || p.Type != String || !p.Required {
		t.Fatalf("format param = %+v, want a required string", p)
	}
	cmd, err := date.Expand(map[string]any{"format": "%Y"})
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"date", "+%Y"}; !reflect.DeepEqual(cmd.Argv, want) {
		t.Fatalf("argv %q, want %q", cmd.Argv, want)
	}
	if cmd.Dir != opts.WorkDir || cmd.Timeout != DefaultTimeout || cmd.MaxOutput != DefaultMaxOutput {
		t.Fatalf("command %+v does not carry the defaults", cmd)
	}
}

func TestLoad_EveryExampleFile(t *testing.T) {
	// shellPending names example files with a tool on a program that
	// became shell-class, and the refusal each gets until the examples'
	// owner marks the tool "shell": true. Such a file may fail with exactly
	// that refusal; any other failure, or none, is judged as for every
	// other example.
	shellPending := map[string]string{
		"llama-server.json": `tool "edit_file": command: sed runs other programs or shell code`,
	}
	files, err := filepath.Glob("../examples/*")
	if err != nil {
		t.Fatal(err)
	}
	loaded := 0
	for _, f := range files {
		if fi, err := os.Stat(f); err != nil || fi.IsDir() || strings.HasSuffix(f, ".go") {
			continue
		}
		t.Run(filepath.Base(f), func(t *testing.T) {
			srcs, err := ReadSources(f)
			if err != nil {
				t.Fatal(err)
			}
			c, err := Load(testOptions(t), srcs...)
			if want, pending := shellPending[filepath.Base(f)]; pending && err != nil && strings.Contains(err.Error(), want) {
				t.Logf("example awaits \"shell\": true: %v", err)
				return
			}
			if err != nil {
				t.Fatalf("example does not load: %v", err)
			}
			if len(c.Tools) == 0 {
				t.Fatal("example declares no tools")
			}
		})
		loaded++
	}
	if loaded < 5 {
		t.Fatalf("only %d example files found", loaded)
	}
}

func TestLoad_DefaultPackIsReadOnly(t *testing.T) {
	srcs, err := ReadSources("../examples/default.json")
	if err != nil {
		t.Fatal(err)
	}
	c, err := Load(testOptions(t), srcs...)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"list_files", "read_file", "grep_search", "file_glob_search", "get_datetime",
		"get_info", "word_count", "head_file", "tail_file"}
	for _, name := range want {
		tl := c.Tool(name)
		if tl == nil {
			t.Errorf("default pack lacks %s", name)
			continue
		}
		if !tl.ReadOnly || tl.Shell {
			t.Errorf("%s: read_only=%v shell=%v, want a read-only non-shell tool", name, tl.ReadOnly, tl.Shell)
		}
	}
	if len(c.Rules) != 1 || !strings.Contains(string(c.Rules[0].JSON), `"read_only": true`) {
		t.Errorf("default pack rules = %q", c.Rules)
	}
}

func TestLoad_ObjectForm(t *testing.T) {
	opts := testOptions(t)
	c := mustLoad(t, opts, "tools.json", `{
  "tools": [{"name": "echo_it", "description": "say {word}", "command": ["echo", "{word}"],
             "timeout": "2s", "max_output": "64KiB", "on_overflow": "kill",
             "env": {"LC_ALL": "C", "GREETING": "{word}"}, "stdin": "{word}", "read_only": true}],
  "rules": [{"decision": "allow", "tool": "echo_it"}],
  "settings": {"timeout": 5000, "max_timeout": "10m", "max_output": 2048}
}`)
	tl := c.Tool("echo_it")
	if tl.Timeout != 2*time.Second || tl.MaxOutput != 64<<10 || tl.OnOverflow != "kill" || !tl.ReadOnly {
		t.Fatalf("fields not read: %+v", tl)
	}
	if c.Settings.Timeout != 5*time.Second || c.Settings.MaxTimeout != 10*time.Minute || c.Settings.MaxOutput != 2048 {
		t.Fatalf("settings %+v", c.Settings)
	}
	if len(c.Rules) != 1 || string(c.Rules[0].JSON) != `[{"decision": "allow", "tool": "echo_it"}]` || c.Rules[0].Source != "tools.json" {
		t.Fatalf("rules %+v", c.Rules)
	}
	cmd, err := tl.Expand(map[string]any{"word": "hi there"})
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"GREETING=hi there", "LC_ALL=C"}; !reflect.DeepEqual(cmd.Env, want) {
		t.Errorf("env %q, want %q", cmd.Env, want)
	}
	if cmd.Stdin != "hi there" || !reflect.DeepEqual(cmd.Argv, []string{"echo", "hi there"}) {
		t.Errorf("command %+v", cmd)
	}
}

func TestLoad_Markdown(t *testing.T) {
	opts := testOptions(t)
	c := mustLoad(t, opts, "tools.md", "# My tools\n\nIntro text.\n\n"+
		"## list_files\n\nList all files\nin a {directory}.\n\nMore prose.\n\n```\nls -la -- {directory}\n```\n\n"+
		"- read_only: true\n- params.directory.type: path\n- params.directory.default: .\n\n"+
		"## `grep_search`\n\nSearch.\n\n```json\n[\"grep\", \"-rn\", \"-e\", \"{pattern}\", \"--\", \"{path}\"]\n```\n\n"+
		"- timeout: 10s\n- params: {\"path\": {\"type\": \"path\", \"default\": \".\"}}\n- params.pattern.max_length: 50\n")
	ls := c.Tool("list_files")
	if ls == nil || ls.Description != "List all files in a {directory}." || !ls.ReadOnly {
		t.Fatalf("list_files = %+v", ls)
	}
	if p := ls.Param("directory"); p.Type != Path || p.Required {
		t.Fatalf("directory param %+v", p)
	}
	g := c.Tool("grep_search")
	if g == nil || g.Timeout != 10*time.Second || g.Param("pattern").MaxLength != 50 || g.Param("path").Type != Path {
		t.Fatalf("grep_search = %+v", g)
	}
	if want := []string{"grep", "-rn", "-e", "{pattern}", "--", "{path}"}; !reflect.DeepEqual(g.Template, want) {
		t.Fatalf("template %q", g.Template)
	}
}

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
		{"unused declaration", "t.json", `[{"name": "a", "command": "ls {dir}", "params": {"dri": {}}}]`, `params.dri: declared, but no template uses {dri}`},
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
		{"list and scalar", "t.json", `[{"name": "a", "command": "ls {x...} {x}"}]`, "both appear"},
		{"list in stdin", "t.json", `[{"name": "a", "command": "cat", "stdin": "{x...}"}]`, "can only fill argv"},
		{"timeout too long", "t.json", `[{"name": "a", "command": "ls", "timeout": "1h"}]`, "timeout: 1h0m0s is outside [100ms, 5m0s]"},
		{"timeout too short", "t.json", `[{"name": "a", "command": "ls", "timeout": 10}]`, "is outside [100ms"},
		{"bad size", "t.json", `[{"name": "a", "command": "ls", "max_output": "lots"}]`, "want a positive size"},
		{"bad overflow", "t.json", `[{"name": "a", "command": "ls", "on_overflow": "explode"}]`, `want "drain" or "kill"`},
		{"control char in description", "t.json", `[{"name": "a", "description": "hi\u001b[2J", "command": "ls"}]`, "escape character"},
		{"bidi in command", "t.json", `[{"name": "a", "command": ["ls", "x\u202ey"]}]`, "bidirectional control"},
		{"bad env name", "t.json", `[{"name": "a", "command": "ls", "env": {"A-B": "x"}}]`, `"A-B" is not a valid variable name`},
		{"markdown list item", "t.md", "## a\n\n```\nls\n```\n\n- read only: true\n", `t.md:7:3: tool "a": list items set fields`},
		{"markdown unclosed fence", "t.md", "## a\n\n```\nls\n", "t.md:3:1: code block is never closed"},
		{"markdown twice", "t.md", "## a\n\n```\nls\n```\n\n- timeout: 1s\n- timeout: 2s\n", "field timeout is set twice"},
		{"markdown command twice", "t.md", "## a\n\n```\nls\n```\n\n- command: rm\n", "command is already given by the section's code block"},
		{"markdown shell construct", "t.md", "## a\n\nx\n\n```\nls; rm -rf /\n```\n", `t.md:6:5: tool "a": command: more than one command`},
		{"markdown named json", "t.json", "# Tools\n\n## a\n", "(a Markdown tool file needs a .md name)"},
		{"system command bad name", "t.json", `{"settings": {"system_command": {"allow": ["/bin/ls"]}}}`, "want a bare program name"},
		{"system command no allow", "t.json", `{"settings": {"system_command": {}}}`, "allow is required"},
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

func TestLoad_SettingsConflictAcrossFiles(t *testing.T) {
	opts := testOptions(t)
	_, err := Load(opts,
		Source{Name: "a.json", Data: []byte(`{"settings": {"timeout": "1s"}}`)},
		Source{Name: "b.json", Data: []byte(`{"settings": {"timeout": "2s"}}`)})
	if err == nil || !strings.Contains(err.Error(), "b.json:1:26: settings.timeout is already set by a.json:1:26") {
		t.Fatalf("err = %v", err)
	}
}

func TestLoad_ToolsAcrossFiles(t *testing.T) {
	opts := testOptions(t)
	c, err := Load(opts,
		Source{Name: "a.json", Data: []byte(`[{"name": "one", "command": "ls"}]`)},
		Source{Name: "b.md", Data: []byte("## two\n\n```\nuname -a\n```\n")})
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Tools) != 2 || c.Tool("one") == nil || c.Tool("two") == nil {
		t.Fatalf("tools %+v", c.Tools)
	}
	_, err = Load(opts,
		Source{Name: "a.json", Data: []byte(`[{"name": "one", "command": "ls"}]`)},
		Source{Name: "b.json", Data: []byte(`[{"name": "one", "command": "ls"}]`)})
	if err == nil || !strings.Contains(err.Error(), `b.json:1:2: tool "one" is already defined at a.json:1:2`) {
		t.Fatalf("err = %v", err)
	}
}

func TestLoad_Warnings(t *testing.T) {
	c := mustLoad(t, testOptions(t), "t.json", `[
 {"name": "g", "description": "grep", "command": "grep {pattern} {file}", "read_only": true},
 {"name": "f", "description": "find", "command": "find . -name {glob} -exec grep -l x {} +"},
 {"name": "t", "description": "typo", "command": "ls {file-name}"},
 {"name": "n", "command": "ls"}
]`)
	var all []string
	for _, w := range c.Warnings {
		all = append(all, w.String())
	}
	text := strings.Join(all, "\n")
	for _, want := range []string{
		`tool "g": {pattern} fills a whole word with no "--" before it`,
		`tool "g": read-only tool with a free-text slot {pattern}`,
		`tool "f": runs a second program through find: /usr/bin/grep`,
		`tool "t": argv word "{file-name}" contains {file-name}, which is literal text`,
		`tool "n": no description`,
	} {
		if !strings.Contains(text, want) {
			t.Errorf("warnings lack %q:\n%s", want, text)
		}
	}
	if strings.Contains(text, `tool "f": {glob} fills`) {
		t.Errorf("warned about an option's argument slot:\n%s", text)
	}
}
