package policy

import (
	"strings"
	"testing"
)

// defaultRules is a one-rule policy allowing read-only tools, as tool files
// wrote it before the built-in rules.
const defaultRules = `[{"id":"read-only","decision":"allow","read_only":true,"reason":"read-only tool"}]`

// workedRules is the README's worked example of precedence.
const workedRules = `[
  {"id": "read-only", "decision": "allow", "read_only": true, "reason": "read-only tool"},
  {"id": "no-env-files", "decision": "deny", "args": {"path": "*.env"}, "reason": "env files hold secrets"},
  {"id": "git", "decision": "allow", "tool": "git", "argv": ["git", "**"],
   "except": {"argv": ["git", "push", "**"]}, "reason": "local git commands"},
  {"id": "rm", "decision": "ask", "argv": ["rm", "**"], "reason": "removes files"},
  {"id": "cleanup", "decision": "allow", "tool": "rm_build", "reason": "removes the build directory"}
]`

func TestDecide_Precedence(t *testing.T) {
	p := mustPolicy(t, workedRules)
	tests := []struct {
		name   string
		in     Input
		action Action
		rule   string
	}{
		{"read-only tool is allowed", Input{Tool: "read_file", ReadOnly: true, Args: args("path", "src/main.go")}, Allow, "read-only"},
		{"deny beats allow", Input{Tool: "read_file", ReadOnly: true, Args: args("path", "prod.env")}, Deny, "no-env-files"},
		{"allow with argv", Input{Tool: "git", Argv: []string{"git", "log"}, Path: "/usr/bin/git"}, Allow, "git"},
		{"except carves out of allow", Input{Tool: "git", Argv: []string{"git", "push", "origin"}, Path: "/usr/bin/git"}, Ask, ""},
		{"ask beats allow", Input{Tool: "rm_build", Argv: []string{"rm", "-rf", "build"}, Path: "/bin/rm"}, Ask, "rm"},
		{"deny beats ask", Input{Tool: "rm_file", Argv: []string{"rm", "x.env"}, Path: "/bin/rm", Args: args("path", "x.env")}, Deny, "no-env-files"},
		{"no match asks", Input{Tool: "write_file", Args: args("path", "a.txt")}, Ask, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			checkDecision(t, p.Decide(tt.in), tt.action, tt.rule)
		})
	}
}

func TestDecide_FirstRuleOfTheWinningDecisionIsNamed(t *testing.T) {
	p := mustPolicy(t, `[
		{"id":"a1","decision":"allow"},
		{"id":"d1","decision":"deny","tool":"x","reason":"first deny"},
		{"id":"a2","decision":"allow","tool":"x"},
		{"id":"d2","decision":"deny","reason":"second deny"}]`)
	d := p.Decide(Input{Tool: "x"})
	checkDecision(t, d, Deny, "d1")
	if d.Reason != "first deny" || d.Source != "test.json" || d.Index != 1 || d.Remembered != "" {
		t.Errorf("decision = %+v, want reason, source and index of d1", d)
	}
	checkDecision(t, p.Decide(Input{Tool: "y"}), Deny, "d2")
}

func TestDecide_ReasonNamesAnUnexplainedRule(t *testing.T) {
	p := mustPolicy(t, `[{"decision":"deny","tool":"x"}]`)
	d := p.Decide(Input{Tool: "x"})
	if d.Rule != "test.json#0" || d.Reason != "matched rule test.json#0" {
		t.Errorf("decision = %+v, want rule test.json#0 named in the reason", d)
	}
	if d := p.Decide(Input{Tool: "y"}); d.Reason != "no rule matched" || d.Index != -1 || d.Source != "" {
		t.Errorf("no-match decision = %+v", d)
	}
}

func TestDecide_DefaultPolicy(t *testing.T) {
	p := defaultPolicy(t, `[]`)
	tests := []struct {
		name   string
		in     Input
		action Action
		rule   string
	}{
		{"read-only tool", Input{Tool: "list_files", ReadOnly: true}, Allow, DefaultReadOnly},
		{"other tool", Input{Tool: "write_file"}, Ask, ""},
		{"read-only shell tool still asks", Input{Tool: "sh_ro", ReadOnly: true, Shell: true}, Ask, DefaultReadOnly},
		{"shell tool", Input{Tool: "sh", Shell: true}, Ask, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			checkDecision(t, p.Decide(tt.in), tt.action, tt.rule)
		})
	}
}

func TestDecide_ShellToolsAreNeverAutoApproved(t *testing.T) {
	p := mustPolicy(t, `[
		{"id":"all","decision":"allow","reason":"anything goes"},
		{"id":"no-curl","decision":"deny","tool":"curl_sh"},
		{"id":"ask-env","decision":"ask","tool":"env_sh"}]`)
	tests := []struct {
		name   string
		in     Input
		action Action
		rule   string
		reason string
	}{
		{"allow becomes ask", Input{Tool: "bash", Shell: true}, Ask, "all", "shell tools are never auto-approved (rule all would allow it: anything goes)"},
		{"deny stays deny", Input{Tool: "curl_sh", Shell: true}, Deny, "no-curl", ""},
		{"ask stays ask", Input{Tool: "env_sh", Shell: true}, Ask, "ask-env", ""},
		{"non-shell is allowed", Input{Tool: "bash"}, Allow, "all", "anything goes"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := p.Decide(tt.in)
			checkDecision(t, d, tt.action, tt.rule)
			if tt.reason != "" && d.Reason != tt.reason {
				t.Errorf("reason = %q, want %q", d.Reason, tt.reason)
			}
		})
	}
}

func TestDecision_Headless(t *testing.T) {
	tests := []struct {
		name   string
		in     Decision
		action Action
		reason string
	}{
		{"ask becomes deny", Decision{Action: Ask, Reason: "no rule matched", Index: -1}, Deny, "no approver is attached (headless): no rule matched"},
		{"allow is unchanged", Decision{Action: Allow, Rule: "r", Reason: "ok"}, Allow, "ok"},
		{"deny is unchanged", Decision{Action: Deny, Rule: "r", Reason: "no"}, Deny, "no"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := tt.in.Headless()
			if got.Action != tt.action || got.Reason != tt.reason || got.Rule != tt.in.Rule {
				t.Errorf("Headless() = %+v, want %s %q by %q", got, tt.action, tt.reason, tt.in.Rule)
			}
		})
	}
}

func TestDecide_Client(t *testing.T) {
	p := mustPolicy(t, `[
		{"id":"claude","decision":"allow","client":"claude-*"},
		{"id":"unknown","decision":"deny","client":""}]`)
	tests := []struct {
		client string
		action Action
		rule   string
	}{
		{"claude-code", Allow, "claude"},
		{"claude-", Allow, "claude"},
		{"cursor", Ask, ""},
		{"", Deny, "unknown"},
	}
	for _, tt := range tests {
		t.Run(tt.client, func(t *testing.T) {
			checkDecision(t, p.Decide(Input{Tool: "t", Client: tt.client}), tt.action, tt.rule)
		})
	}
}

func TestDecide_ReadOnlyFalse(t *testing.T) {
	p := mustPolicy(t, `[{"id":"writers","decision":"deny","read_only":false}]`)
	checkDecision(t, p.Decide(Input{Tool: "w"}), Deny, "writers")
	checkDecision(t, p.Decide(Input{Tool: "r", ReadOnly: true}), Ask, "")
}

func TestNew_RefusesDuplicateIDsAcrossFiles(t *testing.T) {
	a, err := ParseRules("a.json", []byte(`[{"id":"x","decision":"allow"}]`))
	if err != nil {
		t.Fatal(err)
	}
	b, err := ParseRules("b.json", []byte(`[{"decision":"ask"},{"id":"x","decision":"deny"}]`))
	if err != nil {
		t.Fatal(err)
	}
	_, err = New(append(a, b...), nil)
	if err == nil || !strings.Contains(err.Error(), "a.json#0 and b.json#1") {
		t.Errorf("New error = %v, want one naming a.json#0 and b.json#1", err)
	}
	if _, err := New([]Rule{{}}, nil); err == nil {
		t.Error("New accepted a zero Rule")
	}
}
