package journal

import (
	"strings"
	"testing"
	"time"
)

func TestCalls_Fold(t *testing.T) {
	j := openTest(t, Options{})
	for _, r := range []Record{
		{Call: "a", Event: Received, Tool: "grep_search", Client: "claude-code", Session: "s1",
			Path: "/usr/bin/grep", Argv: []string{"grep", "-rn", "x"}, Cwd: "/srv"},
		{Call: "b", Event: Received, Tool: "write_file", Client: "cursor"},
		{Call: "a", Event: Decided, Decision: Ask, Decider: ByRule, Rule: "default", Reason: "no rule matched"},
		{Event: Recovered, Reason: "not a call"},
		{Call: "b", Event: Decided, Decision: Deny, Decider: ByRule, Rule: "no-writes", Reason: "writes are off"},
		{Call: "a", Event: Edited, Edit: &Edit{Before: []string{"grep", "-rn", "x"}, After: []string{"grep", "-n", "x"}}},
		{Call: "a", Event: Decided, Decision: Allow, Decider: ByOperator},
		{Call: "a", Event: Started},
		{Call: "a", Event: Output, Stdout: NewBlob([]byte("partial"), 0)},
		{Call: "a", Event: Finished, Exit: ExitCode(1), Duration: 42 * time.Millisecond, Stdout: NewBlob([]byte("out"), 0)},
	} {
		mustAppend(t, j, r)
	}
	j.Close()
	recs, err := Read(j.Dir())
	if err != nil {
		t.Fatal(err)
	}
	calls := Calls(recs)
	if len(calls) != 2 || calls[0].ID != "a" || calls[1].ID != "b" {
		t.Fatalf("calls = %+v, want a then b", calls)
	}
	a, b := calls[0], calls[1]
	tests := []struct {
		name      string
		got, want any
	}{
		{"a tool", a.Tool, "grep_search"},
		{"a client", a.Client, "claude-code"},
		{"a session", a.Session, "s1"},
		{"a argv is the edited one", strings.Join(a.Argv, " "), "grep -n x"},
		{"a edit keeps the original", strings.Join(a.Edit.Before, " "), "grep -rn x"},
		{"a decision is the last", a.Decision, Allow},
		{"a decider", a.Decider, ByOperator},
		{"a reason is the last decision's", a.Reason, ""},
		{"a state", a.State, Finished},
		{"a exit", *a.Exit, 1},
		{"a duration", a.Duration, 42 * time.Millisecond},
		{"a stdout from finished", a.Stdout.Text, "out"},
		{"a events", len(a.Events), 7},
		{"a time is its first record's", a.Time, recs[0].Time},
		{"b decision", b.Decision, Deny},
		{"b rule", b.Rule, "no-writes"},
		{"b reason", b.Reason, "writes are off"},
		{"b state", b.State, Decided},
		{"b exit", b.Exit == nil, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if tt.got != tt.want {
				t.Errorf("got %v, want %v", tt.got, tt.want)
			}
		})
	}
}
