package policy

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// defaultPolicy is a policy of the files' rules (src) followed by the
// built-in rules for the given state directories, as the loader builds it.
func defaultPolicy(t *testing.T, src string, stateDirs ...string) *Policy {
	t.Helper()
	builtin, err := DefaultRules(stateDirs)
	if err != nil {
		t.Fatal(err)
	}
	p, err := New(append(mustRules(t, src), builtin...), nil)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func TestDefaultRules_Decide(t *testing.T) {
	state := "/home/me/.local/state/assent"
	p := defaultPolicy(t, `[]`, state, "/home/me/.config/assent", "/run/user/1000/assent")
	ro := func(tool string, paths ...string) Input { return Input{Tool: tool, ReadOnly: true, Paths: paths} }
	tests := []struct {
		name   string
		in     Input
		action Action
		rule   string
	}{
		{"read-only tool", ro("get_info"), Allow, DefaultReadOnly},
		{"read-only tool on a project file", ro("read_file", "/srv/app/main.go"), Allow, DefaultReadOnly},
		{"other tool", Input{Tool: "write_file", Paths: []string{"/srv/app/a"}}, Ask, ""},
		{"read-only shell tool still asks", Input{Tool: "sh_ro", ReadOnly: true, Shell: true}, Ask, DefaultReadOnly},
		{".env", ro("read_file", "/srv/app/.env"), Deny, DefaultSecretFiles},
		{".env.local", ro("read_file", "/srv/app/.env.local"), Deny, DefaultSecretFiles},
		{"prod.env", ro("word_count", "/srv/app/a.go", "/srv/app/prod.env"), Deny, DefaultSecretFiles},
		{"private key", ro("head_file", "/etc/ssl/private/server.key"), Deny, DefaultSecretFiles},
		{"pem", ro("grep_search", "/srv/app/cert.pem"), Deny, DefaultSecretFiles},
		{"ssh key", ro("read_file", "/home/me/.ssh/id_ed25519"), Deny, DefaultSecretFiles},
		{"netrc", ro("read_file", "/home/me/.netrc"), Deny, DefaultSecretFiles},
		{"git credentials", ro("read_file", "/home/me/.git-credentials"), Deny, DefaultSecretFiles},
		{"npmrc", ro("read_file", "/srv/app/.npmrc"), Deny, DefaultSecretFiles},
		{"pypirc", ro("read_file", "/home/me/.pypirc"), Deny, DefaultSecretFiles},
		{"secret files are denied for any tool", Input{Tool: "upload", Paths: []string{"/srv/app/.env"}}, Deny, DefaultSecretFiles},
		{"a name that only looks similar", ro("read_file", "/srv/app/environment.go"), Allow, DefaultReadOnly},
		{"the token", ro("read_file", state+"/token"), Deny, DefaultAssentState},
		{"deep in the state", ro("read_file", state+"/journal/2026.jsonl"), Deny, DefaultAssentState},
		{"the state directory itself", ro("list_files", state), Deny, DefaultAssentState},
		{"the runtime directory", ro("list_files", "/run/user/1000/assent/serve.json"), Deny, DefaultAssentState},
		{"a sibling of the state", ro("read_file", state+"-backup/notes"), Allow, DefaultReadOnly},
		{"above the state is asked about", ro("grep_search", "/home/me"), Ask, ""},
		{"the root is asked about", ro("grep_search", "/"), Ask, ""},
		{"below home, beside the state, is allowed", ro("grep_search", "/home/me/src"), Allow, DefaultReadOnly},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := p.Decide(tt.in)
			checkDecision(t, d, tt.action, tt.rule)
			if tt.rule != "" && d.Source != BuiltinSource {
				t.Errorf("decision source = %q, want %q", d.Source, BuiltinSource)
			}
		})
	}
}

// The operator's rules come first and keep the usual precedence against the
// built-in ones: their deny and ask beat default:read-only, and the built-in
// denies beat their allow (to allow such a file, turn the defaults off).
func TestDefaultRules_PrecedenceWithTheOperatorsRules(t *testing.T) {
	p := defaultPolicy(t, `[
		{"id":"ask-lock","decision":"ask","paths":"*.lock"},
		{"id":"no-info","decision":"deny","tool":"get_info"},
		{"id":"env-ok","decision":"allow","tool":"read_file","paths":"*.env"},
		{"id":"ro-too","decision":"allow","read_only":true}]`, "/var/lib/assent")
	tests := []struct {
		name   string
		in     Input
		action Action
		rule   string
	}{
		{"operator's ask beats the default allow", Input{Tool: "read_file", ReadOnly: true, Paths: []string{"/a/go.lock"}}, Ask, "ask-lock"},
		{"operator's deny beats the default allow", Input{Tool: "get_info", ReadOnly: true}, Deny, "no-info"},
		{"the default deny beats the operator's allow", Input{Tool: "read_file", ReadOnly: true, Paths: []string{"/a/prod.env"}}, Deny, DefaultSecretFiles},
		{"the default deny beats it for the state too", Input{Tool: "read_file", ReadOnly: true, Paths: []string{"/var/lib/assent/token"}}, Deny, DefaultAssentState},
		{"among allows the operator's rule is named first", Input{Tool: "read_file", ReadOnly: true, Paths: []string{"/a/main.go"}}, Allow, "ro-too"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			checkDecision(t, p.Decide(tt.in), tt.action, tt.rule)
		})
	}
}

func TestDefaultRules_Shape(t *testing.T) {
	rules, err := DefaultRules(nil)
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for i, r := range rules {
		ids = append(ids, r.Label())
		if r.Source() != BuiltinSource || r.Index() != i {
			t.Errorf("rule %s placed at %s#%d", r.Label(), r.Source(), r.Index())
		}
		for _, res := range r.CheckExamples() {
			if !res.OK() {
				t.Errorf("rule %s example %s: matched %v", r.Label(), res.Example, res.Matched)
			}
		}
		if len(r.CheckExamples()) < 2 {
			t.Errorf("rule %s has %d examples; check shows them, so each rule shows both sides", r.Label(), len(r.CheckExamples()))
		}
	}
	if want := []string{DefaultReadOnly, DefaultSecretFiles}; !slices.Equal(ids, want) {
		t.Errorf("with no state directories: rules %v, want %v", ids, want)
	}
	// The written form reads back as the same rules, for an operator who
	// turns the defaults off and copies them into a policy file.
	for _, r := range rules {
		text := strings.Replace(r.String(), `"id":"default:`, `"id":"copied:`, 1)
		back := mustRules(t, "["+text+"]")[0]
		if back.sameMatches() != r.sameMatches() {
			t.Errorf("copied rule reads back as %s, want %s", back, r)
		}
	}
}

func TestDefaultRules_StateDirectories(t *testing.T) {
	real := t.TempDir()
	link := filepath.Join(t.TempDir(), "state-link")
	if err := os.Symlink(real, link); err != nil {
		t.Fatal(err)
	}
	resolved, err := filepath.EvalSymlinks(real)
	if err != nil {
		t.Fatal(err)
	}
	// The state is named through a symlink and does not exist yet; path
	// arguments arrive resolved, and are denied all the same.
	p := defaultPolicy(t, `[]`, filepath.Join(link, "assent")+"/")
	for _, path := range []string{filepath.Join(link, "assent", "token"), filepath.Join(resolved, "assent", "token")} {
		checkDecision(t, p.Decide(Input{Tool: "read_file", ReadOnly: true, Paths: []string{path}}), Deny, DefaultAssentState)
	}

	for _, bad := range []string{"state", "", "/", "./x"} {
		if _, err := DefaultRules([]string{bad}); err == nil || !strings.Contains(err.Error(), "not an absolute path below /") {
			t.Errorf("DefaultRules(%q) error = %v, want a refusal", bad, err)
		}
	}
}

// A file cannot pass its rule off as a built-in one.
func TestParseRules_RefusesBuiltinIDs(t *testing.T) {
	_, err := ParseRules("policy.json", []byte(`[{"id":"default:read-only","decision":"allow"}]`))
	if err == nil || !strings.Contains(err.Error(), `field "id": ids starting with "default:" are kept for assent's built-in rules`) {
		t.Fatalf("error = %v", err)
	}
	if _, err := ParseRemembered("remembered.json", []byte(`{"rules":[{"id":"default:x","decision":"allow"}]}`)); err == nil || !strings.Contains(err.Error(), "built-in") {
		t.Fatalf("remembered file with a built-in id: error = %v", err)
	}
}
