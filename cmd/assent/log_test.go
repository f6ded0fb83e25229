package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/assent-sh/assent/journal"
)

// testJournal writes a journal with an allowed call that finished, a
// denied one, and one left running, which reopening marks interrupted.
func testJournal(t *testing.T) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "journal.jsonl")
	j, err := journal.Open(path, journal.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range []journal.Record{
		{Call: "c1", Event: journal.Received, Tool: "grep_search", Client: "claude-code",
			Path: "/usr/bin/grep", Argv: []string{"grep", "-rn", "--", "TODO\x1b[2K", "it's \u202edab"}},
		{Call: "c1", Event: journal.Decided, Decision: journal.Allow, Decider: journal.ByRule, Rule: "read-only"},
		{Call: "c1", Event: journal.Started},
		{Call: "c1", Event: journal.Finished, Exit: journal.ExitCode(0), Duration: 12 * time.Millisecond},
		{Call: "c2", Event: journal.Received, Tool: "write_file", Client: "cursor", Argv: []string{"tee", "/etc/passwd"}},
		{Call: "c2", Event: journal.Decided, Decision: journal.Deny, Decider: journal.ByOperator, Reason: "no"},
		{Call: "c3", Event: journal.Received, Tool: "sleep", Client: "claude-code", Argv: []string{"sleep", "60"}},
		{Call: "c3", Event: journal.Decided, Decision: journal.Allow, Decider: journal.ByOperator},
		{Call: "c3", Event: journal.Started},
	} {
		if _, err := j.Append(r); err != nil {
			t.Fatal(err)
		}
	}
	j.Close()
	if j, err = journal.Open(path, journal.Options{}); err != nil {
		t.Fatal(err)
	}
	j.Close()
	return path
}

func runLog(t *testing.T, args ...string) (stdout, stderr string, err error) {
	t.Helper()
	root := newRootCmd()
	var out, errb bytes.Buffer
	root.SetOut(&out)
	root.SetErr(&errb)
	root.SetArgs(append([]string{"log"}, args...))
	err = root.ExecuteContext(context.Background())
	return out.String(), errb.String(), err
}

func TestLog_Table(t *testing.T) {
	path := testJournal(t)
	tests := []struct {
		name    string
		args    []string
		want    []string // substrings of stdout
		notWant []string
		rows    int
	}{
		{name: "every call", rows: 3, want: []string{
			"TIME", "ARGV",
			`c1  claude-code  grep_search  allow     rule read-only  0            12ms      grep -rn -- $'TODO\x1b[2K' $'it\'s \u202edab'`,
			"c2  cursor       write_file   deny      operator        -            -         tee /etc/passwd",
			"c3  claude-code  sleep        allow     operator        interrupted  -         sleep 60",
		}, notWant: []string{"\x1b", "\u202e"}},
		{name: "tool glob", args: []string{"--tool", "grep*"}, rows: 1, want: []string{"grep_search"}, notWant: []string{"write_file", "sleep"}},
		{name: "decision", args: []string{"--decision", "deny"}, rows: 1, want: []string{"write_file"}, notWant: []string{"grep_search"}},
		{name: "since a duration", args: []string{"--since", "1h"}, rows: 3},
		{name: "since a later date", args: []string{"--since", "2999-01-01"}, rows: 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out, _, err := runLog(t, append([]string{"--journal", path}, tt.args...)...)
			if err != nil {
				t.Fatal(err)
			}
			for _, w := range tt.want {
				if !strings.Contains(out, w) {
					t.Errorf("output lacks %q:\n%s", w, out)
				}
			}
			for _, w := range tt.notWant {
				if strings.Contains(out, w) {
					t.Errorf("output holds %q:\n%s", w, out)
				}
			}
			if rows := strings.Count(out, "\n") - 1; rows != tt.rows {
				t.Errorf("%d rows, want %d:\n%s", rows, tt.rows, out)
			}
		})
	}
}

func TestLog_JSON(t *testing.T) {
	out, _, err := runLog(t, "--journal", testJournal(t), "--json", "--decision", "allow")
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	dec := json.NewDecoder(strings.NewReader(out))
	for dec.More() {
		var c journal.Call
		if err := dec.Decode(&c); err != nil {
			t.Fatal(err)
		}
		ids = append(ids, c.ID+":"+string(c.State))
	}
	if got := strings.Join(ids, " "); got != "c1:finished c3:interrupted" {
		t.Errorf("calls = %s", got)
	}
}

func TestLog_Verify(t *testing.T) {
	good := testJournal(t)
	bad := filepath.Join(t.TempDir(), "tampered.jsonl")
	data, _ := os.ReadFile(good)
	os.WriteFile(bad, bytes.Replace(data, []byte("read-only"), []byte("read-all!"), 1), 0o600)

	tests := []struct {
		name     string
		args     []string
		code     int // 0: no error
		stdout   string
		errorSay string
	}{
		{name: "intact", args: []string{"--journal", good, "--verify"}, stdout: "11 records, chain intact, head "},
		{name: "intact json", args: []string{"--journal", good, "--verify", "--json"}, stdout: `{"records":11,"head":"`},
		{name: "tampered", args: []string{"--journal", bad, "--verify"}, code: exitChainBroken,
			errorSay: "does not verify: first bad record 2 (line 2): its hash does not match its contents"},
		{name: "tampered json", args: []string{"--journal", bad, "--verify", "--json"}, code: exitChainBroken,
			stdout: `"fault":{"seq":2,"line":2,`},
		{name: "missing", args: []string{"--journal", bad + ".none", "--verify"}, code: 1, errorSay: "no such file"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out, _, err := runLog(t, tt.args...)
			if tt.code == 0 && err != nil {
				t.Fatalf("err = %v", err)
			}
			if tt.code != 0 && (err == nil || exitCode(err) != tt.code) {
				t.Fatalf("err = %v (exit %d), want exit %d", err, exitCode(err), tt.code)
			}
			if err != nil && !strings.Contains(err.Error(), tt.errorSay) {
				t.Errorf("error %q does not say %q", err, tt.errorSay)
			}
			if !strings.Contains(out, tt.stdout) {
				t.Errorf("stdout %q lacks %q", out, tt.stdout)
			}
		})
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
		{"bad glob", []string{"--journal", path, "--tool", "[x"}, "not a valid glob"},
		{"an argument", []string{"--journal", path, "extra"}, "unknown command"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, _, err := runLog(t, tt.args...)
			if err == nil || !strings.Contains(err.Error(), tt.say) {
				t.Errorf("err = %v, want it to say %q", err, tt.say)
			}
		})
	}
}

func TestLog_NoJournalYet(t *testing.T) {
	out, errOut, err := runLog(t, "--journal", filepath.Join(t.TempDir(), "none.jsonl"))
	if err != nil || out != "" || !strings.Contains(errOut, "no calls journaled yet") {
		t.Errorf("out %q, stderr %q, err %v", out, errOut, err)
	}
}

func TestDisplayWord(t *testing.T) {
	tests := []struct{ in, want string }{
		{"-rn", "-rn"},
		{"./src/a.go", "./src/a.go"},
		{"", "''"},
		{"two words", "'two words'"},
		{"TODO\x1b[2K", `$'TODO\x1b[2K'`},
		{"a\u202eb", `$'a\u202eb'`},
		{"zero\u200bwidth", `$'zero\u200bwidth'`},
		{"line\nbreak\r", `$'line\nbreak\r'`},
		{"\xff\xfe", `$'\xff\xfe'`},
		{`say "hi"`, `'say "hi"'`},
		{"café", "'café'"},
	}
	for _, tt := range tests {
		t.Run(tt.want, func(t *testing.T) {
			if got := displayWord(tt.in); got != tt.want {
				t.Errorf("displayWord(%q) = %s, want %s", tt.in, got, tt.want)
			}
		})
	}
}
