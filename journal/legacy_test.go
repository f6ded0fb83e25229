package journal

import (
	"testing"
)

func TestCall_EndingAndPolicy(t *testing.T) {
	tests := []struct {
		name    string
		records []Record
		ending  Ending
		policy  Decision
	}{
		{"an ending written", []Record{{Event: Decided, Decision: Deny, Decider: ByRule, Ending: Denied}}, Denied, Deny},
		{"old: ran and exited", []Record{{Event: Decided, Decision: Allow, Decider: ByRule}, {Event: Started},
			{Event: Finished, Exit: ExitCode(2)}}, Exited, Allow},
		{"old: timed out", []Record{{Event: Finished, Exit: ExitCode(137), TimedOut: true}}, TimedOut, ""},
		{"old: killed", []Record{{Event: Finished, Reason: "killed by the operator"}}, KilledByOperator, ""},
		{"old: cancelled", []Record{{Event: Finished, Reason: "cancelled: the client withdrew the call or assent shut down"}},
			CancelledByClient, ""},
		{"old: cancelled before it started", []Record{{Event: Finished, Reason: "cancelled before it started: x", Error: "x"}},
			CancelledByClient, ""},
		{"old: could not start", []Record{{Event: Finished, Exit: ExitCode(127), Error: "no such file"}}, NotStarted, ""},
		{"old: denied by a rule", []Record{{Event: Decided, Decision: Deny, Decider: ByRule, Rule: "r"}}, Denied, Deny},
		{"old: headless denial asked", []Record{{Event: Decided, Decision: Deny, Decider: ByHeadless}}, Denied, Ask},
		{"old: operator denial asked", []Record{{Event: Decided, Decision: Ask, Decider: ByRule},
			{Event: Decided, Decision: Deny, Decider: ByOperator}}, Denied, Ask},
		{"old: allowed by the operator", []Record{{Event: Decided, Decision: Ask, Decider: ByRule},
			{Event: Decided, Decision: Allow, Decider: ByOperator}, {Event: Started}, {Event: Finished, Exit: ExitCode(0)}},
			Exited, Ask},
		{"old: timeout denial", []Record{{Event: Decided, Decision: Deny, Decider: ByTimeout}}, Denied, Ask},
		{"old: withdrawn while waiting", []Record{{Event: Decided, Decision: Ask, Decider: ByRule},
			{Event: Decided, Decision: Deny, Decider: ByClient}}, Withdrawn, Ask},
		{"old: refused, bad arguments", []Record{{Event: Decided, Decision: Deny, Decider: ByValidation}}, Refused, ""},
		{"old: refused, limit", []Record{{Event: Decided, Decision: Deny, Decider: ByLimit}}, Refused, ""},
		{"interrupted has no ending", []Record{{Event: Started}, {Event: Interrupted}}, "", ""},
		{"still running", []Record{{Event: Decided, Decision: Allow, Decider: ByRule}, {Event: Started}}, "", Allow},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for i := range tt.records {
				tt.records[i].Call = "c"
			}
			c := Calls(tt.records)[0]
			if c.Ending != tt.ending || c.Policy != tt.policy {
				t.Errorf("ending %q, policy %q; want %q, %q", c.Ending, c.Policy, tt.ending, tt.policy)
			}
		})
	}
}
