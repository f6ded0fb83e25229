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
	if len(c.Rules) != 0 {
		t.Errorf("default pack rules = %q; its policy is the built-in rules", c.Rules)
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

func TestLoad_ToolWithoutPlaceholdersHasNilParams(t *testing.T) {
	c, err := load(t, testOptions(t), "t.json", `[{"name": "a", "command": "ls -la"}]`)
	if err != nil {
		t.Fatal(err)
	}
	if ps := c.Tool("a").Params; ps != nil {
		t.Fatalf("Params = %#v, want nil", ps)
	}
}
