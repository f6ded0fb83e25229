package policy

import (
	"errors"
	"slices"
	"strings"
	"testing"
)

func TestPolicy_RememberAlways_RoundTrip(t *testing.T) {
	store := &memStore{}
	p := mustPolicyWith(t, defaultRules, mustMemory(t, store))
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
	id := savedID(wide)
	checkDecision(t, d, Allow, id)
	if d.Remembered != Always || d.Source != "remembered.json" || d.Index != 0 {
		t.Errorf("decision = %+v, want an always rule", d)
	}
	if store.saves != 1 {
		t.Errorf("store saved %d times, want once", store.saves)
	}
	text := store.text()
	if !strings.HasPrefix(text, "{\n  \"rules\": [\n") || strings.Count(text, `"decision"`) != 1 ||
		!strings.Contains(text, `"path": "./src/*"`) || !strings.Contains(text, `"exact": "TODO*"`) ||
		!strings.Contains(text, `"id": "`+id+`"`) || !strings.Contains(text, `"saved": "20`) {
		t.Errorf("stored rules are not one readable rule:\n%s", text)
	}

	// A new process reads the rule back and decides the same way.
	again := mustPolicyWith(t, defaultRules, mustMemory(t, store))
	checkDecision(t, again.Decide(call), Allow, id)
	rules := again.Remembered()
	if len(rules) != 1 || rules[0].Kept() != Always || rules[0].sameMatches() != wide.sameMatches() || rules[0].Saved().IsZero() {
		t.Errorf("Remembered() = %v, want the saved rule", rules)
	}
}

func TestPolicy_RememberAlways_KeepsHandEdits(t *testing.T) {
	store := &memStore{}
	p := mustPolicyWith(t, `[]`, mustMemory(t, store))
	store.set(`{"rules": [{"id": "by-hand", "decision": "allow", "tool": "date"}]}`)
	if err := p.RememberAlways(Narrowest(grepCall())); err != nil {
		t.Fatal(err)
	}
	got, err := store.Load()
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 || got[0].ID() != "by-hand" || got[1].Index() != 1 {
		t.Fatalf("stored rules = %v, want the hand-written rule then the new one", got)
	}
	checkDecision(t, p.Decide(Input{Tool: "date"}), Allow, "by-hand")
}

func TestParseRemembered_Refuses(t *testing.T) {
	tests := []struct {
		name, content string
		want          string
	}{
		{"a deny rule", `{"rules":[{"decision":"allow"},{"decision":"deny","tool":"x"}]}`, `rules[1]: field "decision": only allow rules`},
		{"the array form", `[{"decision":"allow"}]`, "want an array of rules or"},
		{"an unknown key", `{"rules":[],"saved":1}`, `field "saved"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := ParseRemembered("remembered.json", []byte(tt.content))
			if err == nil || !strings.Contains(err.Error(), tt.want) || !strings.Contains(err.Error(), "remembered.json") {
				t.Errorf("error = %v, want one naming remembered.json and %q", err, tt.want)
			}
			store := &memStore{data: []byte(tt.content)}
			if _, err := NewMemory(store); err == nil {
				t.Error("NewMemory loaded refused remembered rules")
			}
		})
	}
}

func TestPolicy_RememberAlways_Errors(t *testing.T) {
	p := mustPolicy(t, `[]`)
	if err := p.RememberAlways(Narrowest(grepCall())); err == nil || !strings.Contains(err.Error(), "no remembered-rules file") {
		t.Errorf("without a file: error = %v", err)
	}
	store := &memStore{}
	withFile := mustPolicyWith(t, `[]`, mustMemory(t, store))
	ask := mustRules(t, `[{"decision":"ask"}]`)[0]
	if err := withFile.RememberAlways(ask); err == nil {
		t.Error("an ask rule was remembered")
	}
	store.set(`{"rules":[{"decision":"deny"}]}`)
	if err := withFile.RememberAlways(Narrowest(grepCall())); err == nil || !strings.Contains(err.Error(), "rule not remembered") {
		t.Errorf("over a broken file: error = %v", err)
	}
	if got := store.text(); got != `{"rules":[{"decision":"deny"}]}` {
		t.Errorf("a broken file was overwritten: %s", got)
	}
	store.set(`{"rules":[]}`)
	store.fail = errors.New("disk full")
	if err := withFile.RememberAlways(Narrowest(grepCall())); err == nil || !strings.Contains(err.Error(), "disk full") {
		t.Errorf("a failed save: error = %v", err)
	}
	checkDecision(t, withFile.Decide(grepCall()), Ask, "")
}

func TestNew_RefusesRememberedIDClash(t *testing.T) {
	store := &memStore{data: []byte(`{"rules":[{"id":"read-only","decision":"allow","tool":"x"}]}`)}
	_, err := New(mustRules(t, defaultRules), mustMemory(t, store))
	if err == nil || !strings.Contains(err.Error(), `"read-only" is used twice: test.json#0 and remembered.json#0`) {
		t.Errorf("New error = %v, want the id clash named", err)
	}
}

func TestPolicy_RememberAlways_RefusesHandEditedIDClash(t *testing.T) {
	store := &memStore{}
	p := mustPolicyWith(t, defaultRules, mustMemory(t, store))
	clash := `{"rules":[{"id":"read-only","decision":"allow","tool":"x"}]}`
	store.set(clash)
	err := p.RememberAlways(Narrowest(grepCall()))
	if err == nil || !strings.Contains(err.Error(), `"read-only" is used twice`) {
		t.Errorf("error = %v, want the id clash named", err)
	}
	if got := store.text(); got != clash {
		t.Errorf("file was rewritten despite the clash: %s", got)
	}
	checkDecision(t, p.Decide(Input{Tool: "x"}), Ask, "")
}

// A memory is shared by the policies built with it: a rule remembered
// through an old policy, after a new one was built from the same memory
// (a reload), is in force in the new one at once, and Refresh picks up
// hand edits.
func TestMemory_SharedAcrossPolicies(t *testing.T) {
	store := &memStore{}
	mem := mustMemory(t, store)
	old := mustPolicyWith(t, `[]`, mem)
	next := mustPolicyWith(t, `[{"id":"no-etc","decision":"deny","args":{"path":"/etc/*"}}]`, mem)
	call := grepCall()
	checkDecision(t, next.Decide(call), Ask, "")
	if err := old.RememberSession(Narrowest(call)); err != nil {
		t.Fatal(err)
	}
	checkDecision(t, next.Decide(call), Allow, "session#0")
	date := Input{Tool: "date"}
	if err := old.RememberAlways(Narrowest(date)); err != nil {
		t.Fatal(err)
	}
	checkDecision(t, next.Decide(date), Allow, savedID(Narrowest(date)))

	store.set(`{"rules":[{"id":"by-hand","decision":"allow","tool":"uname"}]}`)
	checkDecision(t, next.Decide(Input{Tool: "uname"}), Ask, "")
	if err := mem.Refresh(); err != nil {
		t.Fatal(err)
	}
	checkDecision(t, next.Decide(Input{Tool: "uname"}), Allow, "by-hand")
	checkDecision(t, next.Decide(call), Allow, "session#0")
	store.set(`{"rules":[{"decision":"deny"}]}`)
	if err := mem.Refresh(); err == nil {
		t.Error("Refresh took a deny rule into memory")
	}
	checkDecision(t, next.Decide(Input{Tool: "uname"}), Allow, "by-hand")
}

func TestMemory_Forget(t *testing.T) {
	store := &memStore{}
	mem := mustMemory(t, store)
	p := mustPolicyWith(t, `[]`, mem)
	date, uname := Input{Tool: "date"}, Input{Tool: "uname"}
	for _, in := range []Input{date, uname} {
		if err := p.RememberAlways(Narrowest(in)); err != nil {
			t.Fatal(err)
		}
	}
	id := savedID(Narrowest(date))
	if err := mem.Forget(id); err != nil {
		t.Fatal(err)
	}
	checkDecision(t, p.Decide(date), Ask, "")
	checkDecision(t, p.Decide(uname), Allow, savedID(Narrowest(uname)))
	stored, err := store.Load()
	if err != nil || len(stored) != 1 || stored[0].Index() != 0 || stored[0].ID() != savedID(Narrowest(uname)) {
		t.Fatalf("stored %v (%v), want only the uname rule, renumbered", stored, err)
	}
	if err := mem.Forget(id); err == nil || !strings.Contains(err.Error(), id) {
		t.Errorf("forgetting it twice: %v", err)
	}
}

// rulesStore is a Store that hands back whatever rules it holds, unchecked,
// as a Store other than the remembered-rules file might.
type rulesStore struct {
	rules []Rule
	saves int
}

func (s *rulesStore) Name() string            { return "rules-store" }
func (s *rulesStore) Load() ([]Rule, error)   { return slices.Clone(s.rules), nil }
func (s *rulesStore) Save(rules []Rule) error { s.rules, s.saves = rules, s.saves+1; return nil }

// Every read of the store refuses what the console would never have
// written there, Forget's too: a deny rule in the store neither takes
// effect nor is saved back.
func TestMemory_ForgetRefusesABadStore(t *testing.T) {
	store := &rulesStore{rules: mustRules(t, `[{"id":"d","decision":"allow","tool":"date"}]`)}
	mem := mustMemory(t, store)
	p := mustPolicyWith(t, `[]`, mem)
	store.rules = mustRules(t, `[{"id":"hand","decision":"deny","tool":"uname"},{"id":"d","decision":"allow","tool":"date"}]`)
	if err := mem.Forget("d"); err == nil || !strings.Contains(err.Error(), "only allow rules") {
		t.Errorf("Forget over a deny rule: %v", err)
	}
	if store.saves != 0 {
		t.Error("the store was saved")
	}
	checkDecision(t, p.Decide(Input{Tool: "uname"}), Ask, "")
	checkDecision(t, p.Decide(Input{Tool: "date"}), Allow, "d")
}
