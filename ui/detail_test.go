package ui

import (
	"errors"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/assent-sh/assent/config"
	"github.com/assent-sh/assent/exec"
	"github.com/assent-sh/assent/policy"
	"github.com/assent-sh/assent/queue"
)

// TestDetail_ShowsTheCall checks what the detail pane says about calls
// of each kind.
func TestDetail_ShowsTheCall(t *testing.T) {
	cmd := exec.Command{Path: "/usr/bin/grep", Argv: []string{"grep", "-rn", "--", "a b", "/usr"},
		Dir: "/srv/app", Env: []string{"LANG=C", "TOKEN=hunter2"}, Stdin: "first line\nsecond", Timeout: 5 * time.Second}
	edited := cmd
	edited.Argv = []string{"grep", "-rn", "--", "c", "/usr"}
	t0 := time.Date(2026, 12, 1, 9, 0, 0, 0, time.UTC)
	tests := []struct {
		name    string
		call    queue.Call
		want    []string
		notWant []string
	}{
		{"pending, no rule",
			queue.Call{Status: queue.Pending, Command: cmd, Secrets: []string{"hunter2"},
				SecretSpans: []config.SecretSpan{{In: "env", Index: 1, Start: 6, End: 13}},
				Decision:    policy.Decision{Action: policy.Ask, Reason: "no rule matched"}},
			[]string{"/usr/bin/grep", "  'a b'", "cwd /srv/app · timeout 5s", "env +LANG=C", "env +TOKEN='•••'",
				"stdin · 2 lines · 17 bytes", "  1 first line", "  2 second", "asks: no rule matched"},
			[]string{"hunter2"}},
		{"pending, an ask rule",
			queue.Call{Status: queue.Pending, Command: cmd,
				Decision: policy.Decision{Action: policy.Ask, Rule: "writes", Reason: "it writes files"}},
			[]string{"asks: rule writes: it writes files"}, nil},
		{"shell tool",
			queue.Call{Status: queue.Pending, Shell: true, Decision: policy.Decision{Action: policy.Ask},
				Command: exec.Command{Path: "/bin/sh", Argv: []string{"sh", "-c", "ls"}}},
			[]string{iconWarning + " shell tool", "  -c"}, nil},
		{"argv[0] other than the program's name",
			queue.Call{Status: queue.Pending, Command: exec.Command{Path: "/usr/bin/busybox", Argv: []string{"ls", "-l"}}},
			[]string{"/usr/bin/busybox", "as argv[0] ls"}, nil},
		{"edited and ran",
			queue.Call{Status: queue.Done, Ending: queue.Exited, Decider: queue.ByOperator, Command: edited, Original: &cmd,
				Started: t0, Ended: t0.Add(1200 * time.Millisecond),
				Result: &exec.Result{ExitCode: 1, Stdout: exec.Output{Bytes: 2048, Truncated: true}}},
			[]string{"exit 1", "approved by the operator, edited", "edited; the agent asked for:",
				"grep -rn -- 'a b' /usr", "exit 1 · 1.2s · stdout 2 KiB, stderr 0 bytes (truncated)"}, nil},
		{"killed",
			queue.Call{Status: queue.Done, Ending: queue.KilledByOperator, Decider: queue.ByRule, Killed: true, Command: cmd, Started: t0, Ended: t0,
				Decision: policy.Decision{Action: policy.Allow, Rule: "read-only"},
				Result:   &exec.Result{ExitCode: 143, Cancelled: true, Signal: "SIGTERM"}},
			[]string{"approved by rule read-only", "exit 143 · killed by the operator · SIGTERM"}, nil},
		{"killed at its output cap",
			queue.Call{Status: queue.Done, Ending: queue.KilledAtCap, Decider: queue.ByRule, Command: cmd, Started: t0, Ended: t0,
				Decision: policy.Decision{Action: policy.Allow, Rule: "read-only"},
				Result: &exec.Result{ExitCode: 143, OverflowKilled: true, Signal: "SIGTERM",
					Stdout: exec.Output{Data: make([]byte, 4), Bytes: 9000, Truncated: true}}},
			[]string{"exit 143 · killed because its output passed the tool's cap of 4", "bytes (on_overflow: kill) · SIGTERM", "output cap"}, nil},
		{"denied by a rule",
			queue.Call{Status: queue.Denied, Decider: queue.ByRule, Command: cmd,
				Decision: policy.Decision{Action: policy.Deny, Rule: "no-burn", Reason: "never burn"}},
			[]string{"denied by rule no-burn: never burn"}, nil},
		{"sandbox, caps and a multi-line argument",
			queue.Call{Status: queue.Pending, Decision: policy.Decision{Action: policy.Ask},
				Command: exec.Command{Path: "/usr/bin/echo", Argv: []string{"echo", "first\nsecond\x1b[2J\nthird"},
					MaxOutput: 1 << 20, OnOverflow: exec.Kill,
					Sandbox: &exec.Sandbox{Read: []string{"/usr/share"}, Write: []string{"/srv/app"}, Network: true}}},
			[]string{"output cap 1 MiB (killed past it)", "sandbox reads /usr/share", "writes /srv/app", "network allowed",
				"argv[1] · 3 lines · 22 bytes", "  1 first", `  2 second\x1b[2J`, "  3 third", "invisible characters shown as escapes"},
			nil},
		{"no sandbox",
			queue.Call{Status: queue.Pending, Command: exec.Command{Path: "/usr/bin/echo", Argv: []string{"echo"}}},
			[]string{"sandbox none: runs unconfined"}, nil},
		{"killed with no output",
			queue.Call{Status: queue.Done, Ending: queue.KilledByOperator, Decider: queue.ByOperator, Killed: true, Command: cmd,
				Started: t0, Ended: t0, Result: &exec.Result{ExitCode: 143, Cancelled: true, Signal: "SIGTERM"}},
			[]string{"exit 143 · killed by the operator · SIGTERM · 0ms · no output"}, []string{"partial output", "stdout 0 bytes"}},
		{"refused arguments, secret masked by name",
			// The agent repeats the secret in another argument: that one
			// stays readable, as it is in the command.
			queue.Call{Status: queue.Refused, Decider: queue.ByValidation, Reason: `parameter "n" is not a number`,
				Args: map[string]any{"n": "x<y", "token": "hunter2", "host": "hunter2.example"}, Secrets: []string{"hunter2"},
				SecretParams: []string{"token"}},
			[]string{"not expanded", `n="x<y"`, `token="•••"`, `host="hunter2.example"`, "refused (invalid): parameter"},
			[]string{`token="hunter2"`}},
		{"refused, a long secret quoted in the reason",
			queue.Call{Status: queue.Refused, Decider: queue.ByValidation, Reason: `parameter "n": s3cr3t-value-long is not a number`,
				Args: map[string]any{"n": "s3cr3t-value-long"}, Secrets: []string{"s3cr3t-value-long"},
				OutputSecrets: []string{"s3cr3t-value-long"}, SecretParams: []string{"n"}},
			[]string{`refused (invalid): parameter "n": ••• is not a number`}, []string{"s3cr3t"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFixture(t, nil)
			h := newHarness(t, f, nil)
			tt.call.ID, tt.call.Tool, tt.call.Client = 1, "tool", "client"
			h.send(tea.WindowSizeMsg{Width: 120, Height: 40})
			h.send(eventMsg{ev: queue.Event{Kind: queue.EventDecided, Call: tt.call}})
			h.expectScreen(tt.want, tt.notWant)
		})
	}
}

// TestHeader_JournalAndCounts shows the journal's failure and the counts.
func TestHeader_JournalAndCounts(t *testing.T) {
	f := newFixture(t, nil)
	h := newHarness(t, f, func(o *Options) { o.Token = "abc" })
	h.pending("grep_search", grepArgs)
	head := strings.SplitN(h.screen(), "\n", 2)[0]
	if !strings.Contains(head, "1 pending · 0 running · 0 done") || !strings.Contains(head, "journal ok") ||
		strings.Contains(head, "abc") {
		t.Errorf("header %q", head)
	}
	h.send(eventMsg{ev: queue.Event{Kind: queue.EventDecided, Call: queue.Call{ID: 9, Tool: "x", Status: queue.Refused,
		Decider: queue.ByJournal}}, journal: errors.New("disk full")})
	head = strings.SplitN(h.screen(), "\n", 2)[0]
	if !strings.Contains(head, "journal failed: calls refused") {
		t.Errorf("header %q does not say the journal failed", head)
	}
}

// The list names how each call ended, from the queue's one account of it:
// a call killed at its output cap is not a plain failure.
func TestList_StateFollowsTheEnding(t *testing.T) {
	st := NewStyles(true)
	t0 := time.Date(2026, 12, 1, 9, 0, 0, 0, time.UTC)
	ran := func(e queue.Ending, code int) *queue.Call {
		return &queue.Call{Status: queue.Done, Ending: e, Started: t0, Ended: t0.Add(12 * time.Millisecond),
			Result: &exec.Result{ExitCode: code}}
	}
	for _, tc := range []struct {
		call *queue.Call
		want string
	}{
		{ran(queue.Exited, 0), "0 12ms"},
		{ran(queue.Exited, 2), "2 12ms"},
		{ran(queue.KilledAtCap, 143), "output cap"},
		{ran(queue.KilledByOperator, 143), "killed"},
		{ran(queue.TimedOut, 143), "timeout 12ms"},
		{ran(queue.CancelledByClient, 143), "cancelled"},
		{ran(queue.ShutDown, 143), "shut down"},
		{ran(queue.NotStarted, 127), "not started"},
	} {
		if got := stateOf(&st, tc.call, t0).label; got != tc.want {
			t.Errorf("%s: label %q, want %q", tc.call.Ending, got, tc.want)
		}
	}
}
