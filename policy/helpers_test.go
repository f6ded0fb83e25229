package policy

import (
	"sync"
	"testing"
)

// mustRules parses a rules array written in a test, failing the test on error.
func mustRules(t testing.TB, src string) []Rule {
	t.Helper()
	rules, err := ParseRules("test.json", []byte(src))
	if err != nil {
		t.Fatalf("ParseRules: %v\n%s", err, src)
	}
	return rules
}

// mustPolicy builds a policy from a rules array written in a test, with a
// memory of its own that keeps no always rules.
func mustPolicy(t testing.TB, src string) *Policy {
	t.Helper()
	return mustPolicyWith(t, src, nil)
}

// mustPolicyWith builds a policy from a rules array and a memory.
func mustPolicyWith(t testing.TB, src string, mem *Memory) *Policy {
	t.Helper()
	p, err := New(mustRules(t, src), mem)
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	return p
}

// memStore is a Store kept in memory, in the remembered-rules file's
// bytes, so what a test stores goes through the same parse and marshal as
// the file does.
type memStore struct {
	mu    sync.Mutex
	data  []byte // nil: nothing stored yet
	saves int
	fail  error // returned by Save when set
}

func (s *memStore) Name() string { return "remembered.json" }

func (s *memStore) Load() ([]Rule, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.data == nil {
		return nil, nil
	}
	return ParseRemembered(s.Name(), s.data)
}

func (s *memStore) Save(rules []Rule) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.fail != nil {
		return s.fail
	}
	data, err := MarshalRemembered(rules)
	if err != nil {
		return err
	}
	s.data, s.saves = data, s.saves+1
	return nil
}

func (s *memStore) set(text string) {
	s.mu.Lock()
	s.data = []byte(text)
	s.mu.Unlock()
}

func (s *memStore) text() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return string(s.data)
}

// mustMemory returns a memory over store.
func mustMemory(t testing.TB, store Store) *Memory {
	t.Helper()
	m, err := NewMemory(store)
	if err != nil {
		t.Fatalf("NewMemory: %v", err)
	}
	return m
}

// args builds an Input.Args from key, value pairs (a key may repeat to make
// a list).
func args(kv ...string) map[string][]string {
	m := map[string][]string{}
	for i := 0; i+1 < len(kv); i += 2 {
		m[kv[i]] = append(m[kv[i]], kv[i+1])
	}
	return m
}

// checkDecision compares the parts of a decision a test cares about: the
// action always, the rule label and a reason fragment when given.
func checkDecision(t *testing.T, got Decision, action Action, rule string) {
	t.Helper()
	if got.Action != action || got.Rule != rule {
		t.Errorf("decision = %s by %q (%s), want %s by %q", got.Action, got.Rule, got.Reason, action, rule)
	}
}
