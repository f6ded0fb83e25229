package main

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/assent-sh/assent/journal"
)

// logRecords are the calls every log test reads: one allowed by a rule
// that ran, one the operator denied after the policy asked, one headless
// mode denied, one the operator approved, and one left running, which
// closing the journal marks interrupted.
func logRecords() []journal.Record {
	return []journal.Record{
		{Call: "c1", Event: journal.Received, Tool: "grep_search", Client: "claude-code"},
		{Call: "c1", Event: journal.Decided, Decision: journal.Allow, Decider: journal.ByRule,
			Rule: "/home/me/.config/assent/policy.json#3", Reason: "read-only tool",
			Path: "/usr/bin/grep", Argv: []string{"grep", "-rn", "--", "TODO\x1b[2K", "it's \u202edab"}},
		{Call: "c1", Event: journal.Started},
		{Call: "c1", Event: journal.Finished, Exit: journal.ExitCode(0), Duration: 12 * time.Millisecond, Ending: journal.Exited},
		{Call: "c2", Event: journal.Received, Tool: "write_file", Client: "cursor"},
		{Call: "c2", Event: journal.Decided, Decision: journal.Ask, Decider: journal.ByRule, Argv: []string{"tee", "/etc/passwd"}},
		{Call: "c2", Event: journal.Decided, Decision: journal.Deny, Decider: journal.ByOperator, Reason: "no", Ending: journal.Denied},
		{Call: "c3", Event: journal.Received, Tool: "write_file", Client: "codex"},
		{Call: "c3", Event: journal.Decided, Decision: journal.Deny, Decider: journal.ByHeadless,
			Reason: "no rule allows it and nobody can be asked", Argv: []string{"tee", "/tmp/x"}, Ending: journal.Denied},
		{Call: "c4", Event: journal.Received, Tool: "make", Client: "claude-code"},
		{Call: "c4", Event: journal.Decided, Decision: journal.Ask, Decider: journal.ByRule, Argv: []string{"make", "test"}},
		{Call: "c4", Event: journal.Decided, Decision: journal.Allow, Decider: journal.ByOperator,
			Reason: "approved by the operator", Argv: []string{"make", "test"}},
		{Call: "c4", Event: journal.Started},
		{Call: "c4", Event: journal.Finished, Exit: journal.ExitCode(2), Signal: "", Duration: 1500 * time.Millisecond, Ending: journal.Exited},
		{Call: "c5", Event: journal.Received, Tool: "sleep", Client: "claude-code"},
		{Call: "c5", Event: journal.Decided, Decision: journal.Allow, Decider: journal.ByRule, Rule: "naps", Argv: []string{"sleep", "60"}},
		{Call: "c5", Event: journal.Started},
	}
}

// testJournal writes logRecords to a new journal directory, sealed only
// when it closes.
func testJournal(t *testing.T) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "journal")
	j, err := journal.Open(dir, journal.Options{SealInterval: time.Hour})
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range logRecords() {
		if _, err := j.Append(r); err != nil {
			t.Fatal(err)
		}
	}
	if err := j.Close(); err != nil {
		t.Fatal(err)
	}
	return dir
}

// oldJournalFile writes logRecords as assent wrote journals before
// segments, seals and endings: one file, records from seq 1, no ending.
func oldJournalFile(t *testing.T) string {
	t.Helper()
	var out []byte
	prev := ""
	for i, r := range logRecords() {
		r.Seq, r.Time, r.Prev, r.Ending = int64(i+1), time.Date(2026, 11, 1, 9, 0, i, 0, time.UTC), prev, ""
		body, err := json.Marshal(r)
		if err != nil {
			t.Fatal(err)
		}
		sum := sha256.Sum256(body)
		prev = hex.EncodeToString(sum[:])
		out = append(append(append(out, body[:len(body)-1]...), `,"hash":"`+prev+`"}`...), '\n')
	}
	path := filepath.Join(t.TempDir(), "old.jsonl")
	if err := os.WriteFile(path, out, 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

func runLog(t *testing.T, args ...string) (stdout, stderr string, err error) {
	t.Helper()
	return runLogContext(context.Background(), args...)
}

func runLogContext(ctx context.Context, args ...string) (stdout, stderr string, err error) {
	root := newRootCmd()
	var out, errb bytes.Buffer
	root.SetOut(&out)
	root.SetErr(&errb)
	root.SetArgs(append([]string{"log"}, args...))
	err = root.ExecuteContext(ctx)
	return out.String(), errb.String(), err
}

// rowPattern matches a table row by its cells in order, however padded.
func rowPattern(cells ...string) *regexp.Regexp {
	for i, c := range cells {
		cells[i] = regexp.QuoteMeta(c)
	}
	return regexp.MustCompile(`(?m)^` + strings.Join(cells, ` +`) + `$`)
}

func TestLog_Table(t *testing.T) {
	rows := map[string]*regexp.Regexp{
		"c1": rowPattern("c1", "claude-code", "grep_search", "allow", "rule policy.json#3", "exited", "0", "12ms",
			"read-only tool", `grep -rn -- $'TODO\x1b[2K' $'it\'s \u202edab'`),
		"c2": rowPattern("c2", "cursor", "write_file", "deny", "operator", "denied", "-", "-", "no", "tee /etc/passwd"),
		"c3": rowPattern("c3", "codex", "write_file", "deny", "headless", "denied", "-", "-",
			"no rule allows it and nobody can be asked", "tee /tmp/x"),
		"c4": rowPattern("c4", "claude-code", "make", "allow", "operator", "exited", "2", "1.5s", "approved by the operator", "make test"),
		"c5": rowPattern("c5", "claude-code", "sleep", "allow", "rule naps", "interrupted", "-", "-", "-", "sleep 60"),
	}
	for _, source := range []struct{ name, path string }{{"directory", testJournal(t)}, {"old single file", oldJournalFile(t)}} {
		tests := []struct {
			name string
			args []string
			ids  []string
		}{
			{name: "every call", ids: []string{"c1", "c2", "c3", "c4", "c5"}},
			{name: "tool glob", args: []string{"--tool", "*_*"}, ids: []string{"c1", "c2", "c3"}},
			{name: "decision deny", args: []string{"--decision", "deny"}, ids: []string{"c2", "c3"}},
			{name: "decision ask, whoever answered", args: []string{"--decision", "ask"}, ids: []string{"c2", "c3", "c4"}},
			{name: "since a later date", args: []string{"--since", "2999-01-01"}},
		}
		for _, tt := range tests {
			t.Run(source.name+"/"+tt.name, func(t *testing.T) {
				out, _, err := runLog(t, append([]string{"--journal", source.path}, tt.args...)...)
				if err != nil {
					t.Fatal(err)
				}
				if strings.ContainsAny(out, "\x1b\u202e") {
					t.Errorf("output holds raw control characters:\n%s", out)
				}
				if len(tt.ids) == 0 {
					if out != "" {
						t.Errorf("output %q, want none", out)
					}
					return
				}
				lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
				if !regexp.MustCompile(`^TIME +ID +CLIENT +TOOL +DECISION +DECIDER +ENDING +EXIT +DURATION +REASON +ARGV$`).
					MatchString(lines[0]) || len(lines) != len(tt.ids)+1 {
					t.Fatalf("%d lines, want a header and %d rows:\n%s", len(lines), len(tt.ids), out)
				}
				for i, id := range tt.ids {
					row := strings.SplitN(lines[i+1], " ", 3)[2]
					// An old journal's c5 was never closed: it stands as it was.
					if source.name == "old single file" && id == "c5" {
						if !strings.Contains(row, "running") {
							t.Errorf("old c5 row %q, want it running", row)
						}
						continue
					}
					if !rows[id].MatchString(strings.TrimLeft(row, " ")) {
						t.Errorf("row %d = %q; want %s", i+1, row, rows[id])
					}
				}
			})
		}
	}
}

func TestLog_JSON(t *testing.T) {
	out, _, err := runLog(t, "--journal", testJournal(t), "--json", "--decision", "allow")
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	dec := json.NewDecoder(strings.NewReader(out))
	for dec.More() {
		var c journal.Call
		if err := dec.Decode(&c); err != nil {
			t.Fatal(err)
		}
		got = append(got, c.ID+":"+string(c.State)+":"+string(c.Ending)+":"+string(c.Policy))
		if len(c.Events) == 0 || c.Segment == "" {
			t.Errorf("call %s has no records or no segment", c.ID)
		}
	}
	if s := strings.Join(got, " "); s != "c1:finished:exited:allow c4:finished:exited:ask c5:interrupted::allow" {
		t.Errorf("calls = %s", s)
	}
}

func TestLog_BadInput(t *testing.T) {
	path := testJournal(t)
	tests := []struct {
		name string
		args []string
		say  string
	}{
		{"unknown decision", []string{"--journal", path, "--decision", "maybe"}, `--decision "maybe" is not allow, deny or ask`},
		{"bad since", []string{"--journal", path, "--since", "last tuesday"}, `--since "last tuesday" is neither`},
		{"a character class, which rules refuse", []string{"--journal", path, "--tool", "[x]"}, "not a valid glob"},
		{"two modes", []string{"--journal", path, "--verify", "--follow"}, "give one"},
		{"an argument", []string{"--journal", path, "extra"}, "unknown command"},
		{"a journal that does not exist", []string{"--journal", "/nonexistent"}, "journal /nonexistent does not exist"},
		{"its verify", []string{"--journal", "/nonexistent", "--verify"}, "journal /nonexistent does not exist"},
		{"its head", []string{"--journal", "/nonexistent", "--head"}, "journal /nonexistent does not exist"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, _, err := runLog(t, tt.args...)
			if err == nil || !strings.Contains(err.Error(), tt.say) || exitCode(err) != 1 {
				t.Errorf("err = %v (exit %d), want exit 1 saying %q", err, exitCode(err), tt.say)
			}
		})
	}
}
