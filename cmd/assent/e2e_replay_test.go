package main

import (
	"bufio"
	"net"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/assent-sh/assent/journal"
	"github.com/assent-sh/assent/server/servertest"
)

// TestE2E_ReplayHeadless submits a journal's calls again through
// `assent replay --headless`: each is a new call decided by today's tools
// and rules, whatever the record said, and calls that cannot be replayed
// are skipped with a log line.
func TestE2E_ReplayHeadless(t *testing.T) {
	e := newE2E(t)
	old := filepath.Join(e.dir, "state", "old.jsonl")
	j, err := journal.Open(old, journal.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range []journal.Record{
		{Call: "then-1", Event: journal.Received, Tool: "say", Args: map[string]any{"word": "again"}},
		{Call: "then-1", Event: journal.Decided, Decision: journal.Deny, Decider: journal.ByOperator},
		{Call: "then-2", Event: journal.Received, Tool: "touch_it", Args: map[string]any{"file": "x"}},
		{Call: "then-2", Event: journal.Decided, Decision: journal.Allow, Decider: journal.ByOperator},
		{Call: "then-3", Event: journal.Received, Tool: "gone_tool", Args: map[string]any{}},
	} {
		if _, err := j.Append(r); err != nil {
			t.Fatal(err)
		}
	}
	if err := j.Close(); err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	fresh := filepath.Join(e.dir, "state", "fresh.jsonl")
	cmd := e.command(t.Context(), "replay", old, "--headless", "--tools", e.tools, "--listen", addr, "--journal", fresh)
	cmd.Env = append(cmd.Env, "ASSENT_TOKEN="+e2eToken)
	stderr := &servertest.Buffer{}
	cmd.Stderr = stderr
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	firstLine(t, bufio.NewReader(stdout))
	servertest.WaitFor(t, "both calls replayed", func() bool {
		return strings.Count(stderr.String(), "msg=replay ") == 2 && strings.Contains(stderr.String(), "no longer exists")
	})
	if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	if err := cmd.Wait(); err != nil {
		t.Fatalf("replay exited with %v\n%s", err, stderr)
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
	if !strings.Contains(stderr.String(), `journaled_call=then-3`) {
		t.Errorf("the skipped call is not logged:\n%s", stderr)
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
