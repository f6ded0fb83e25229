package setup

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"go.uber.org/goleak"

	"github.com/assent-sh/assent/config"
	"github.com/assent-sh/assent/policy"
	"github.com/assent-sh/assent/state"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

// testTools: a read-only tool, one that writes below the work directory,
// and rules.
const testTools = `{
  "tools": [
    {"name": "look", "description": "read-only", "command": "uname {what}", "read_only": true},
    {"name": "change", "description": "writes", "command": "touch -- {file}", "params": {"file": {"type": "path"}}},
    {"name": "burn", "description": "denied", "command": "uname --burn {x}"}
  ],
  "rules": [
    {"id": "read-only", "decision": "allow", "read_only": true, "reason": "read-only tool"},
    {"id": "no-burn", "decision": "deny", "tool": "burn", "reason": "never burn"}
  ]
}`

// dirs makes a work directory and a separate state directory.
func dirs(t *testing.T) (work, state string) {
	t.Helper()
	base, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	work, state = filepath.Join(base, "work"), filepath.Join(base, "state")
	for _, d := range []string{work, state} {
		if err := os.Mkdir(d, 0o700); err != nil {
			t.Fatal(err)
		}
	}
	return work, state
}

// mustLoad makes a loader with o and loads it once, failing the test on
// any error.
func mustLoad(t *testing.T, o Options) (*Loader, Loaded) {
	t.Helper()
	l, err := NewLoader(o)
	if err != nil {
		t.Fatal(err)
	}
	got, err := l.Load()
	if err != nil {
		t.Fatal(err)
	}
	return l, got
}

// writeFile writes text to path as an editor does: a temporary file
// renamed over the original.
func writeFile(t *testing.T, path, text string) {
	t.Helper()
	tmp := path + ".tmp"
	if err := os.WriteFile(tmp, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(tmp, path); err != nil {
		t.Fatal(err)
	}
}

func TestLoad_FilesPolicyAndMemory(t *testing.T) {
	work, state := dirs(t)
	tools := filepath.Join(state, "tools.json")
	writeFile(t, tools, testTools)
	pol := filepath.Join(state, "policy.json")
	writeFile(t, pol, `[{"id": "ask-look", "decision": "ask", "tool": "look", "args": {"what": "-a"}}]`)
	l, got := mustLoad(t, Options{Tools: []string{tools}, PolicyFile: pol, Remembered: filepath.Join(state, "remembered.json"),
		WorkDir: work, PATH: "/usr/bin:/bin"})
	if got.Config.Tool("look") == nil || len(fileRules(got.Policy)) != 3 || got.Policy.Memory() != l.Memory() {
		t.Fatalf("loaded %v tools, %d rules from files", got.Config.Sources, len(fileRules(got.Policy)))
	}
	if files := l.Files(); len(files) != 2 || files[0] != tools || files[1] != pol {
		t.Errorf("Files() = %v", files)
	}
	again, err := l.Load()
	if err != nil {
		t.Fatal(err)
	}
	if again.Policy == got.Policy || again.Policy.Memory() != got.Policy.Memory() {
		t.Error("a second load must build a new policy over the same memory")
	}
}

func TestLoad_ReportsEveryRuleError(t *testing.T) {
	work, state := dirs(t)
	pol := filepath.Join(state, "policy.json")
	writeFile(t, pol, `[{"decision": "maybe"}]`)
	l, err := NewLoader(Options{Sources: []config.Source{{Name: "t.json", Data: []byte(
		`{"tools": [{"name": "a", "command": "id"}], "rules": [{"decision": "perhaps"}]}`)}},
		PolicyFile: pol, Remembered: filepath.Join(state, "r.json"), WorkDir: work})
	if err != nil {
		t.Fatal(err)
	}
	_, err = l.Load()
	if err == nil || !strings.Contains(err.Error(), "t.json") || !strings.Contains(err.Error(), "policy.json") {
		t.Fatalf("error = %v, want both files' rule errors", err)
	}
	writeFile(t, pol, `[]`)
	os.Remove(pol)
	if _, err := l.Load(); err == nil || !strings.Contains(err.Error(), "policy file") {
		t.Errorf("missing policy file: %v", err)
	}
}

// No tool may be able to write assent's own files: the tool files, the
// policy, the remembered rules, and whatever the caller protects.
func TestLoad_RefusesProtectedFilesUnderAWriteRoot(t *testing.T) {
	work, state := dirs(t)
	inWork := filepath.Join(work, "tools.json")
	writeFile(t, inWork, testTools)
	for _, tc := range []struct {
		name string
		o    Options
		want string
	}{
		{"tool file", Options{Tools: []string{inWork}, Remembered: filepath.Join(state, "r.json")}, "tool file " + inWork},
		{"remembered rules", Options{Sources: []config.Source{{Name: "t", Data: []byte(testTools)}}, Remembered: filepath.Join(work, "r.json")},
			"remembered-rules file " + filepath.Join(work, "r.json")},
		{"journal", Options{Sources: []config.Source{{Name: "t", Data: []byte(testTools)}}, Remembered: filepath.Join(state, "r.json"),
			Protected: []config.ProtectedFile{{What: "journal", Path: filepath.Join(work, "j.jsonl")}}}, "journal " + filepath.Join(work, "j.jsonl")},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tc.o.WorkDir = work
			l, err := NewLoader(tc.o)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := l.Load(); err == nil || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), `tool "change"`) {
				t.Errorf("error = %v, want %q refused", err, tc.want)
			}
		})
	}
}

func TestRememberedFile_RoundTrip(t *testing.T) {
	_, state := dirs(t)
	path := filepath.Join(state, "sub", "remembered.json")
	mem, err := policy.NewMemory(RememberedFile(path))
	if err != nil {
		t.Fatal(err)
	}
	p, err := policy.New(nil, mem)
	if err != nil {
		t.Fatal(err)
	}
	call := policy.Input{Tool: "grep", Args: map[string][]string{"pattern": {"TODO*"}}}
	if err := p.RememberAlways(policy.Narrowest(call)); err != nil {
		t.Fatal(err)
	}
	info, err := os.Stat(path)
	if err != nil || info.Mode().Perm() != 0o600 {
		t.Fatalf("remembered file: %v %v, want mode 0600", info, err)
	}
	if entries, _ := os.ReadDir(filepath.Dir(path)); len(entries) != 1 {
		t.Errorf("directory holds %v, want only the remembered file", entries)
	}
	again, err := policy.NewMemory(RememberedFile(path))
	if err != nil {
		t.Fatal(err)
	}
	if rules := again.Rules(); len(rules) != 1 || rules[0].Source() != path || rules[0].Kept() != policy.Always {
		t.Errorf("read back %v", rules)
	}
}

func TestRememberedFile_Refuses(t *testing.T) {
	_, state := dirs(t)
	missing, err := RememberedFile(filepath.Join(state, "none.json")).Load()
	if err != nil || missing != nil {
		t.Errorf("a missing file: %v, %v; want no rules, no error", missing, err)
	}
	for _, tc := range []struct {
		name, content string
		perm          os.FileMode
		want          string
	}{
		{"a group-writable file", `{"rules":[]}`, 0o620, "chmod 600"},
		{"a world-writable file", `{"rules":[]}`, 0o602, "written by group or others"},
		{"a deny rule", `{"rules":[{"decision":"deny","tool":"x"}]}`, 0o600, "only allow rules"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(state, strings.ReplaceAll(tc.name, " ", "-")+".json")
			if err := os.WriteFile(path, []byte(tc.content), 0o600); err != nil {
				t.Fatal(err)
			}
			if err := os.Chmod(path, tc.perm); err != nil {
				t.Fatal(err)
			}
			if _, err := RememberedFile(path).Load(); err == nil || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), path) {
				t.Errorf("error = %v, want one naming %s and %q", err, path, tc.want)
			}
			if _, err := NewLoader(Options{Remembered: path}); err == nil {
				t.Error("NewLoader accepted the file")
			}
		})
	}
}

func TestLoad_PolicyFileNamesItself(t *testing.T) {
	work, state := dirs(t)
	path := filepath.Join(state, "policy.json")
	o := Options{Sources: []config.Source{{Name: "t.json", Data: []byte(`[{"name": "rm", "command": "id"}]`)}},
		PolicyFile: path, Remembered: filepath.Join(state, "r.json"), WorkDir: work}
	l, err := NewLoader(o)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := l.Load(); err == nil || !strings.Contains(err.Error(), path) {
		t.Errorf("missing file: error = %v, want one naming %s", err, path)
	}
	writeFile(t, path, `{"rules":[{"id":"x","decision":"deny","tool":"rm"}]}`)
	got, err := l.Load()
	if err != nil {
		t.Fatal(err)
	}
	if rules := fileRules(got.Policy); len(rules) != 1 || rules[0].Source() != path {
		t.Fatalf("rules %v, want the policy file's one rule named by its path", rules)
	}
}

// fileRules are the policy's rules that came from files, not built in.
func fileRules(p *policy.Policy) []policy.Rule {
	var out []policy.Rule
	for _, r := range p.Rules() {
		if r.Source() != policy.BuiltinSource {
			out = append(out, r)
		}
	}
	return out
}

// The built-in rules follow the files' rules and deny assent's own
// directories; settings.default_policy: false turns them off.
func TestLoad_BuiltinRules(t *testing.T) {
	work, state := dirs(t)
	load := func(settings string) *policy.Policy {
		t.Helper()
		_, got := mustLoad(t, Options{Sources: []config.Source{{Name: "t.json", Data: []byte(
			`{"tools": [{"name": "cat", "command": "cat -- {path}", "read_only": true, "params": {"path": {"type": "path", "under": ["/"]}}}]` +
				settings + `}`)}}, Remembered: filepath.Join(state, "r.json"), WorkDir: work, StateDirs: []string{state}})
		return got.Policy
	}
	on := load("")
	rules := on.Rules()
	if len(rules) != 3 || rules[0].ID() != policy.DefaultReadOnly || rules[2].ID() != policy.DefaultAssentState {
		t.Fatalf("rules %v, want the three built-in ones", rules)
	}
	in := policy.Input{Tool: "cat", ReadOnly: true, Paths: []string{filepath.Join(state, "token")}}
	if d := on.Decide(in); d.Action != policy.Deny || d.Rule != policy.DefaultAssentState {
		t.Errorf("reading the state directory: %s by %s", d.Action, d.Rule)
	}
	off := load(`, "settings": {"default_policy": false}`)
	if rules := off.Rules(); len(rules) != 0 {
		t.Errorf("with default_policy false: rules %v", rules)
	}
	if d := off.Decide(in); d.Action != policy.Ask {
		t.Errorf("with default_policy false: %s by %s, want ask", d.Action, d.Rule)
	}
}

// The default tools read "."; started from / , the home directory or a
// system directory they would hand an agent everything, so that start is
// refused with what to do instead. Tool files named by the operator are
// theirs to judge.
func TestLoad_DefaultToolsRefuseBroadWorkDirs(t *testing.T) {
	_, state := dirs(t)
	home, _ := os.UserHomeDir()
	for _, dir := range []string{"/", home, "/usr/share", "/etc"} {
		l, err := NewLoader(Options{ConfigDir: filepath.Join(state, "none"), Remembered: filepath.Join(state, "r.json"), WorkDir: dir})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := l.Load(); err == nil || !strings.Contains(err.Error(), "cd into a project directory") {
			t.Errorf("started in %s: %v, want a refusal", dir, err)
		}
	}
	work, _ := dirs(t)
	l, err := NewLoader(Options{ConfigDir: filepath.Join(state, "none"), Remembered: filepath.Join(state, "r.json"), WorkDir: work})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := l.Load(); err != nil {
		t.Errorf("started in a project directory: %v", err)
	}
}

// A home directory reached through a symlink is still the home directory,
// whichever of the two names assent was started under.
func TestLoad_DefaultToolsRefuseASymlinkedHome(t *testing.T) {
	_, base := dirs(t)
	real := filepath.Join(base, "real-home")
	link := filepath.Join(base, "home")
	if err := os.Mkdir(real, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(real, link); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ home, workDir string }{{link, real}, {real, link}, {link, link}} {
		t.Run("HOME="+filepath.Base(tc.home)+",cwd="+filepath.Base(tc.workDir), func(t *testing.T) {
			t.Setenv("HOME", tc.home)
			l, err := NewLoader(Options{ConfigDir: filepath.Join(base, "none"), Remembered: filepath.Join(base, "r.json"),
				WorkDir: tc.workDir, StateDirs: []string{filepath.Join(base, "state")}})
			if err != nil {
				t.Fatal(err)
			}
			if _, err := l.Load(); err == nil || !strings.Contains(err.Error(), "your home directory") {
				t.Errorf("started in the home directory: %v, want a refusal", err)
			}
		})
	}
}

// With no StateDirs given, the built-in rules deny assent's state, config
// and runtime directories: the runtime one holds the console's socket and
// runtime file, which no tool may touch.
func TestNewLoader_DefaultStateDirs(t *testing.T) {
	work, base := dirs(t)
	t.Setenv("XDG_STATE_HOME", filepath.Join(base, "xdg-state"))
	t.Setenv("XDG_CONFIG_HOME", filepath.Join(base, "xdg-config"))
	run, err := state.RuntimeDir()
	if err != nil {
		t.Skipf("no runtime directory here: %v", err)
	}
	_, got := mustLoad(t, Options{Sources: []config.Source{{Name: "t.json", Data: []byte(
		`[{"name": "cat", "command": "cat -- {path}", "read_only": true, "params": {"path": {"type": "path", "under": ["/"]}}}]`)}},
		Remembered: filepath.Join(base, "r.json"), WorkDir: work})
	for _, dir := range []string{filepath.Join(base, "xdg-state", "assent"), filepath.Join(base, "xdg-config", "assent"), run} {
		in := policy.Input{Tool: "cat", ReadOnly: true, Paths: []string{filepath.Join(dir, "console.json")}}
		if d := got.Policy.Decide(in); d.Action != policy.Deny || d.Rule != policy.DefaultAssentState {
			t.Errorf("reading in %s: %s by %q, want denied by %s", dir, d.Action, d.Rule, policy.DefaultAssentState)
		}
	}
}
