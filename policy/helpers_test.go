package policy

import (
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

// mustPolicy builds a policy from a rules array written in a test.
func mustPolicy(t testing.TB, src string, opts ...Option) *Policy {
	t.Helper()
	p, err := New(mustRules(t, src), opts...)
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	return p
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
