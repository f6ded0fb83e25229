package policy

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestPolicy_RememberAlways_RoundTrip(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "state", "remembered.json")
	p := mustPolicy(t, defaultRules, WithRememberedFile(path))
	call := grepCall()
	wide, err := Narrowest(call).WidenArg("path", "./src/*")
	if err != nil {
		t.Fatal(err)
	}
	for range 2 { // the second time is a duplicate and must not be written
		if err := p.RememberAlways(wide); err != nil {
			t.Fatal(err)
		}
	}
	d := p.Decide(call)
	checkDecision(t, d, Allow, path+"#0")
	if d.Remembered != Always {
		t.Errorf("decision = %+v, want an always rule", d)
	}

	info, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if perm := info.Mode().Perm(); perm != 0o600 {
		t.Errorf("remembered file mode = %#o, want 0600", perm)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	text := string(data)
	if !strings.HasPrefix(text, "{\n  \"rules\": [\n") || strings.Count(text, `"decision"`) != 1 ||
		!strings.Contains(text, `"path": "./src/*"`) || !strings.Contains(text, `"exact": "TODO*"`) {
		t.Errorf("remembered file is not one readable rule:\n%s", text)
	}
	entries, err := os.ReadDir(filepath.Dir(path))
	if err != nil || len(entries) != 1 {
		t.Errorf("directory holds %v (%v), want only the remembered file", entries, err)
	}

	// A new process reads the rule back and decides the same way.
	again := mustPolicy(t, defaultRules, WithRememberedFile(path))
	checkDecision(t, again.Decide(call), Allow, path+"#0")
	rules := again.Remembered()
	if len(rules) != 1 || rules[0].Memory() != Always || rules[0].sameMatches() != wide.sameMatches() {
		t.Errorf("Remembered() = %v, want the saved rule", rules)
	}
}

func TestPolicy_RememberAlways_KeepsHandEdits(t *testing.T) {
	path := filepath.Join(t.TempDir(), "remembered.json")
	p := mustPolicy(t, `[]`, WithRememberedFile(path))
	hand := `{"rules": [{"id": "by-hand", "decision": "allow", "tool": "date"}]}`
	if err := os.WriteFile(path, []byte(hand), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := p.RememberAlways(Narrowest(grepCall())); err != nil {
		t.Fatal(err)
	}
	got, err := ReadRemembered(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 || got[0].ID() != "by-hand" || got[1].Index() != 1 {
		t.Fatalf("file rules = %v, want the hand-written rule then the new one", got)
	}
	checkDecision(t, p.Decide(Input{Tool: "date"}), Allow, "by-hand")
}

func TestReadRemembered_Refuses(t *testing.T) {
	tests := []struct {
		name, content string
		perm          os.FileMode
		want          string
	}{
		{"a deny rule", `{"rules":[{"decision":"allow"},{"decision":"deny","tool":"x"}]}`, 0o600, `rules[1]: field "decision": only allow rules`},
		{"the array form", `[{"decision":"allow"}]`, 0o600, "want an array of rules or"},
		{"an unknown key", `{"rules":[],"saved":1}`, 0o600, `field "saved"`},
		{"a group-writable file", `{"rules":[]}`, 0o620, "chmod 600"},
		{"a world-writable file", `{"rules":[]}`, 0o602, "written by group or others"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "remembered.json")
			if err := os.WriteFile(path, []byte(tt.content), 0o600); err != nil {
				t.Fatal(err)
			}
			if err := os.Chmod(path, tt.perm); err != nil {
				t.Fatal(err)
			}
			_, err := ReadRemembered(path)
			if err == nil || !strings.Contains(err.Error(), tt.want) || !strings.Contains(err.Error(), path) {
				t.Errorf("error = %v, want one naming %s and %q", err, path, tt.want)
			}
			if _, err := New(nil, WithRememberedFile(path)); err == nil {
				t.Error("New loaded a policy with a refused remembered-rules file")
			}
		})
	}
}

func TestReadRemembered_MissingFileHoldsNoRules(t *testing.T) {
	rules, err := ReadRemembered(filepath.Join(t.TempDir(), "none.json"))
	if err != nil || rules != nil {
		t.Errorf("ReadRemembered(missing) = %v, %v; want no rules, no error", rules, err)
	}
}

func TestPolicy_RememberAlways_Errors(t *testing.T) {
	p := mustPolicy(t, `[]`)
	if err := p.RememberAlways(Narrowest(grepCall())); err == nil || !strings.Contains(err.Error(), "no remembered-rules file") {
		t.Errorf("without a file: error = %v", err)
	}
	path := filepath.Join(t.TempDir(), "remembered.json")
	withFile := mustPolicy(t, `[]`, WithRememberedFile(path))
	ask := mustRules(t, `[{"decision":"ask"}]`)[0]
	if err := withFile.RememberAlways(ask); err == nil {
		t.Error("an ask rule was remembered")
	}
	if err := os.WriteFile(path, []byte(`{"rules":[{"decision":"deny"}]}`), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := withFile.RememberAlways(Narrowest(grepCall())); err == nil || !strings.Contains(err.Error(), "rule not remembered") {
		t.Errorf("over a broken file: error = %v", err)
	}
	if data, _ := os.ReadFile(path); string(data) != `{"rules":[{"decision":"deny"}]}` {
		t.Errorf("a broken file was overwritten: %s", data)
	}
}

func TestNew_RefusesRememberedIDClash(t *testing.T) {
	path := filepath.Join(t.TempDir(), "remembered.json")
	if err := os.WriteFile(path, []byte(`{"rules":[{"id":"read-only","decision":"allow","tool":"x"}]}`), 0o600); err != nil {
		t.Fatal(err)
	}
	_, err := New(mustRules(t, defaultRules), WithRememberedFile(path))
	if err == nil || !strings.Contains(err.Error(), `"read-only" is used twice: test.json#0 and `+path+"#0") {
		t.Errorf("New error = %v, want the id clash named", err)
	}
}

func TestPolicy_RememberAlways_RefusesHandEditedIDClash(t *testing.T) {
	path := filepath.Join(t.TempDir(), "remembered.json")
	p := mustPolicy(t, defaultRules, WithRememberedFile(path))
	clash := `{"rules":[{"id":"read-only","decision":"allow","tool":"x"}]}`
	if err := os.WriteFile(path, []byte(clash), 0o600); err != nil {
		t.Fatal(err)
	}
	err := p.RememberAlways(Narrowest(grepCall()))
	if err == nil || !strings.Contains(err.Error(), `"read-only" is used twice`) {
		t.Errorf("error = %v, want the id clash named", err)
	}
	if data, _ := os.ReadFile(path); string(data) != clash {
		t.Errorf("file was rewritten despite the clash: %s", data)
	}
	checkDecision(t, p.Decide(Input{Tool: "x"}), Ask, "")
}
