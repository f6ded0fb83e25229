package setup

import (
	"path/filepath"
	"testing"

	"github.com/assent-sh/assent/config"
	"github.com/assent-sh/assent/policy"
	"github.com/assent-sh/assent/state"
)

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
