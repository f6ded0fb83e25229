package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/assent-sh/assent/journal"
	"github.com/assent-sh/assent/replay"
)

func TestReplay_DryRun(t *testing.T) {
	inTempState(t)
	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "journal")
	j, err := journal.Open(path, journal.Options{})
	if err != nil {
		t.Fatal(err)
	}
	calls := []journal.Record{
		{Call: "r-1", Event: journal.Received, Tool: "get_info", Args: map[string]any{}},
		{Call: "r-1", Event: journal.Decided, Decision: journal.Allow, Decider: journal.ByRule, Rule: "read-only",
			Argv: []string{"uname", "-a"}},
		{Call: "r-2", Event: journal.Received, Tool: "gone_tool"},
		{Call: "r-2", Event: journal.Decided, Decision: journal.Allow, Decider: journal.ByOperator},
		{Call: "r-3", Event: journal.Received, Tool: "list_files", Args: map[string]any{"directory": "/etc"}},
		{Call: "r-3", Event: journal.Decided, Decision: journal.Allow, Decider: journal.ByRule, Rule: "read-only"},
		{Call: "r-4", Event: journal.Received, Tool: "read_file", Args: map[string]any{"path": filepath.Join(wd, "main.go")}},
		{Call: "r-4", Event: journal.Decided, Decision: journal.Deny, Decider: journal.ByRule, Rule: "old-deny"},
		// What the agent sent reaches the report escaped, never raw.
		{Call: "r-5", Event: journal.Received, Tool: "read_file", Args: map[string]any{"path": "/etc/passwd"}},
		{Call: "r-5", Event: journal.Decided, Decision: journal.Deny, Decider: journal.Decider("rule\x1b[2J")},
		{Call: "r-6", Event: journal.Received, Tool: "read_file", Args: map[string]any{"path": filepath.Join(wd, "main.go")}},
		{Call: "r-6", Event: journal.Decided, Decision: journal.Deny, Decider: journal.ByRule, Rule: "old\x1b[2J"},
	}
	for _, r := range calls {
		if _, err := j.Append(r); err != nil {
			t.Fatal(err)
		}
	}
	if err := j.Close(); err != nil {
		t.Fatal(err)
	}
	out, err := run(t, "replay", path, "--dry-run")
	if code := exitCodeOrZero(err); code != 3 {
		t.Fatalf("exit %d (%v), want 3\n%s", code, err, out)
	}
	if strings.Contains(out, "\x1b") {
		t.Errorf("the report holds a raw escape:\n%q", out)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	want := map[string][]string{
		"r-1": {"allow by rule", "  allow (rule default:read-only)  ", "  -"},
		"r-5": {`deny by rule\x1b[2J`, "refused"},
		"r-6": {"decision was deny by rule old\\x1b[2J, now allow"},
		"r-2": {"refused", "the tool no longer exists"},
		"r-3": {"refused", "arguments refused today", "outside the allowed directories"},
		"r-4": {"deny by rule", "allow (rule default:read-only)", "decision was deny by rule old-deny"},
	}
	for _, l := range lines[1:] {
		id := strings.Fields(l)[0]
		for _, w := range want[id] {
			if !strings.Contains(l, w) {
				t.Errorf("line for %s lacks %q: %s", id, w, l)
			}
		}
		delete(want, id)
	}
	if len(want) > 0 {
		t.Fatalf("calls missing from the report: %v\n%s", want, out)
	}
}

// A skipped call's reason may carry the queue's error text, which may hold
// what the agent sent: it is printed escaped, as the dry run prints its
// phrases, never raw.
func TestReplayReport_EscapesWhyACallWasSkipped(t *testing.T) {
	var out strings.Builder
	r := &replayReport{w: &out}
	r.compared(replay.Comparison{Call: "c1", Tool: "say", Skipped: "refused today: bad value \x1b[2J\u202e"})
	if got, want := out.String(), `c1  say  skipped: refused today: bad value \x1b[2J\u202e`+"\n"; got != want {
		t.Errorf("printed %q, want %q", got, want)
	}
}

// A filter that cannot be applied is refused while the flags are read,
// naming the flag, before any journal is read.
func TestReplay_BadFilter(t *testing.T) {
	inTempState(t)
	missing := filepath.Join(t.TempDir(), "none")
	for _, tt := range []struct {
		name string
		args []string
		say  string
	}{
		{"a character class", []string{"--tool", "[x]"}, `--tool "[x]" is not a valid glob`},
		{"a lone backslash", []string{"--tool", `x\`}, `--tool "x\\" is not a valid glob`},
		{"a bad time", []string{"--since", "yesterday"}, `--since "yesterday" is neither`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			out, err := run(t, append([]string{"replay", missing, "--dry-run"}, tt.args...)...)
			if err == nil || !strings.Contains(err.Error(), tt.say) {
				t.Errorf("err = %v, want one saying %s\n%s", err, tt.say, out)
			}
		})
	}
}
