package setup

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"go.uber.org/goleak"

	"github.com/assent-sh/assent/config"
	"github.com/assent-sh/assent/policy"
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
