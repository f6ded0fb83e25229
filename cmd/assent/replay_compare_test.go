package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/assent-sh/assent/journal"
	"github.com/assent-sh/assent/journal/journaltest"
)

// writeJournal writes records to a new journal directory and returns it.
func writeJournal(t *testing.T, recs []journal.Record) string {
	t.Helper()
	return journaltest.Write(t, "then", recs...)
}

// ranThen is the records of a call that ran and wrote stdout.
func ranThen(id, tool string, args map[string]any, stdout string) []journal.Record {
	return []journal.Record{
		{Call: id, Event: journal.Received, Tool: tool, Args: args},
		{Call: id, Event: journal.Decided, Decision: journal.Allow, Decider: journal.ByRule, Rule: "default:read-only"},
		{Call: id, Event: journal.Started},
		{Call: id, Event: journal.Finished, Exit: journal.ExitCode(0), Ending: journal.Exited,
			Stdout: journal.NewBlob([]byte(stdout), 0), Stderr: journal.NewBlob(nil, 0)},
	}
}

// Headless replay runs each call again and compares: a stable output is
// "same" and exits 0; a changed one is a unified diff and exits 3. The new
// journal's records name the call they replay.
func TestReplay_HeadlessCompares(t *testing.T) {
	state := inTempState(t)
	tools := filepath.Join(t.TempDir(), "tools.json")
	if err := os.WriteFile(tools, []byte(`[
	  {"name": "say", "command": "echo {word}", "read_only": true},
	  {"name": "clock", "command": "date +%s.%N", "read_only": true}]`), 0o644); err != nil {
		t.Fatal(err)
	}
	stable := writeJournal(t, ranThen("then-1", "say", map[string]any{"word": "hello"}, "hello\n"))
	fresh := filepath.Join(state, "fresh")
	out, err := run(t, "replay", stable, "--headless", "--tools", tools, "--journal", fresh)
	if err != nil || !strings.Contains(out, "then-1  say  same (replayed as ") {
		t.Fatalf("stable call: %v\n%s", err, out)
	}
	for _, c := range journal.Calls(mustRead(t, fresh)) {
		if c.ReplayOf != "then-1" {
			t.Errorf("replayed call %s does not name the call it replays: %q", c.ID, c.ReplayOf)
		}
	}

	changed := writeJournal(t, ranThen("then-2", "clock", map[string]any{}, "1764580000.123456789\n"))
	out, err = run(t, "replay", changed, "--headless", "--tools", tools, "--journal", fresh)
	if code := exitCodeOrZero(err); code != 3 {
		t.Fatalf("changed output: exit %d (%v), want 3\n%s", code, err, out)
	}
	for _, want := range []string{"then-2  clock  differs", "stdout differs:", "--- stdout then", "+++ stdout now",
		"-1764580000.123456789"} {
		if !strings.Contains(out, want) {
			t.Errorf("the report lacks %q:\n%s", want, out)
		}
	}

	// Filters choose calls; --json prints one object each.
	both := writeJournal(t, append(ranThen("then-3", "say", map[string]any{"word": "x"}, "x\n"),
		ranThen("then-4", "clock", map[string]any{}, "0\n")...))
	out, err = run(t, "replay", both, "--headless", "--tools", tools, "--journal", fresh, "--tool", "s*", "--json")
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	var got struct {
		Call    string   `json:"call"`
		Differs []string `json:"differs"`
	}
	var objects []string
	for _, l := range strings.Split(out, "\n") {
		if strings.HasPrefix(l, "{") {
			objects = append(objects, l)
		}
	}
	if len(objects) != 1 {
		t.Fatalf("--tool s* --json: %d objects, want 1\n%s", len(objects), out)
	}
	if err := json.Unmarshal([]byte(objects[0]), &got); err != nil || got.Call != "then-3" || len(got.Differs) != 0 {
		t.Errorf("--tool s* --json: %q (%v)", objects[0], err)
	}
}

// Dry run sees operator decisions: a call the operator denied that a rule
// now allows is flagged, and so is one the operator approved that a rule
// now denies; a call that still asks is not.
func TestReplay_DryRunSeesOperatorDecisions(t *testing.T) {
	inTempState(t)
	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	asked := func(id, tool string, args map[string]any, d journal.Decision) []journal.Record {
		return []journal.Record{
			{Call: id, Event: journal.Received, Tool: tool, Args: args},
			{Call: id, Event: journal.Decided, Decision: journal.Ask, Decider: journal.ByRule},
			{Call: id, Event: journal.Decided, Decision: d, Decider: journal.ByOperator},
		}
	}
	var recs []journal.Record
	recs = append(recs, asked("op-1", "read_file", map[string]any{"path": filepath.Join(wd, "main.go")}, journal.Deny)...)
	recs = append(recs, asked("op-2", "read_file", map[string]any{"path": filepath.Join(wd, "main.go")}, journal.Allow)...)
	path := writeJournal(t, recs)
	pol := filepath.Join(t.TempDir(), "new.json")
	if err := os.WriteFile(pol, []byte(`[{"id": "ask-writes", "decision": "ask", "tool": "write_*"}]`), 0o644); err != nil {
		t.Fatal(err)
	}
	out, err := run(t, "replay", path, "--dry-run", "--policy", pol)
	if code := exitCodeOrZero(err); code != 3 {
		t.Fatalf("exit %d (%v), want 3\n%s", code, err, out)
	}
	for _, want := range []string{"denied by the operator, now allow by rule default:read-only"} {
		if !strings.Contains(out, want) {
			t.Errorf("dry run lacks %q:\n%s", want, out)
		}
	}
	for _, l := range strings.Split(out, "\n") {
		if strings.HasPrefix(l, "op-2") && !strings.Contains(l, "approved by the operator, now allow") {
			t.Errorf("op-2: %s", l)
		}
	}
}
