package main

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/assent-sh/assent/journal"
	"github.com/assent-sh/assent/server/servertest"
)

// TestE2E_ReplayHeadless submits a journal's calls again through
// `assent replay --headless`: each is a new call decided by today's tools
// and rules, whatever the record said, and calls that cannot be replayed
// (a tool gone, a secret argument the journal masked) are skipped with a
// log line, never submitted.
func TestE2E_ReplayHeadless(t *testing.T) {
	e := newE2E(t)
	old := filepath.Join(e.dir, "state", "old")
	j, err := journal.Open(old, journal.Options{})
	if err != nil {
		t.Fatal(err)
	}
	// The queue journals a secret argument as the journal's token for it.
	token, err := j.Token("a secret word")
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range []journal.Record{
		{Call: "then-1", Event: journal.Received, Tool: "say", Args: map[string]any{"word": "again"}},
		{Call: "then-1", Event: journal.Decided, Decision: journal.Deny, Decider: journal.ByOperator},
		{Call: "then-2", Event: journal.Received, Tool: "touch_it", Args: map[string]any{"file": "x"}},
		{Call: "then-2", Event: journal.Decided, Decision: journal.Allow, Decider: journal.ByOperator},
		{Call: "then-3", Event: journal.Received, Tool: "gone_tool", Args: map[string]any{}},
		{Call: "then-4", Event: journal.Received, Tool: "say", Args: map[string]any{"word": token}},
		{Call: "then-4", Event: journal.Decided, Decision: journal.Allow, Decider: journal.ByRule},
	} {
		if _, err := j.Append(r); err != nil {
			t.Fatal(err)
		}
	}
	if err := j.Close(); err != nil {
		t.Fatal(err)
	}
	// Headless replay serves nothing and ends by itself; it exits 3, since
	// these calls come out differently from their records.
	fresh := filepath.Join(e.dir, "state", "fresh")
	cmd := e.command(t.Context(), "replay", old, "--headless", "--tools", e.tools, "--journal", fresh)
	stderr, stdout := &servertest.Buffer{}, &servertest.Buffer{}
	cmd.Stderr, cmd.Stdout = stderr, stdout
	err = cmd.Run()
	if code := cmd.ProcessState.ExitCode(); code != 3 {
		t.Fatalf("replay exited with %v (code %d), want 3\n%s%s", err, code, stdout, stderr)
	}
	for _, want := range []string{"then-1  say  differs (replayed as ", "then it was denied by operator, now it exited 0",
		"then-2  touch_it  differs", "then-3  gone_tool  skipped: the tool no longer exists",
		"then-4  say  skipped: the journal masked its secret arguments"} {
		if !strings.Contains(stdout.String(), want) {
			t.Errorf("the report lacks %q:\n%s", want, stdout)
		}
	}
	calls := journal.Calls(mustRead(t, fresh))
	if len(calls) != 2 {
		t.Fatalf("%d calls in the new journal, want 2\n%s", len(calls), stderr)
	}
	if c := calls[0]; c.Tool != "say" || c.State != journal.Finished || c.Decision != journal.Allow || c.Exit == nil || *c.Exit != 0 {
		t.Errorf("the call denied then is allowed by today's rule and runs: %+v", c)
	}
	if c := calls[1]; c.Tool != "touch_it" || c.Decision != journal.Deny || c.Decider != journal.ByHeadless {
		t.Errorf("the call approved then asks today, which headless denies: %+v", c)
	}
	for _, id := range []string{"then-3", "then-4"} {
		if !strings.Contains(stderr.String(), "journaled_call="+id) {
			t.Errorf("the skipped call %s is not logged:\n%s", id, stderr)
		}
	}
}

func mustRead(t *testing.T, path string) []journal.Record {
	t.Helper()
	recs, err := journal.Read(path)
	if err != nil {
		t.Fatal(err)
	}
	return recs
}
