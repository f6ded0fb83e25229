package replay

import (
	"testing"

	"github.com/assent-sh/assent/journal"
	"github.com/assent-sh/assent/policy"
)

func TestDecidedThen_Changed(t *testing.T) {
	allowRule := policy.Decision{Action: policy.Allow, Rule: "r"}
	denyRule := policy.Decision{Action: policy.Deny, Rule: "no"}
	ask := policy.Decision{Action: policy.Ask}
	for _, tc := range []struct {
		name string
		then decidedThen
		now  policy.Decision
		want string
	}{
		{"rule allow, still allowed", decidedThen{decision: journal.Allow, decider: journal.ByRule}, allowRule, ""},
		{"rule allow, now denied", decidedThen{decision: journal.Allow, decider: journal.ByRule, rule: "old"}, denyRule,
			"decision was allow by rule old, now deny by rule no"},
		{"an unnamed rule's allow, now denied", decidedThen{decision: journal.Allow, decider: journal.ByRule}, denyRule,
			"decision was allow by a rule, now deny by rule no"},
		{"operator denied, now allowed", decidedThen{asked: true, decision: journal.Deny, decider: journal.ByOperator}, allowRule,
			"denied by the operator, now allow by rule r"},
		{"operator approved, now denied", decidedThen{asked: true, decision: journal.Allow, decider: journal.ByOperator}, denyRule,
			"approved by the operator, now deny by rule no"},
		{"operator decided, still asks", decidedThen{asked: true, decision: journal.Deny, decider: journal.ByOperator}, ask, ""},
		{"headless denied an ask, now allowed", decidedThen{asked: true, decision: journal.Deny, decider: journal.ByHeadless}, allowRule,
			"denied by headless mode (policy asked), now allow by rule r"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := tc.then.changed(tc.now); got != tc.want {
				t.Errorf("changed = %q, want %q", got, tc.want)
			}
		})
	}
}
