package ui

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/assent-sh/assent/policy"
	"github.com/assent-sh/assent/queue"
	"github.com/assent-sh/assent/queue/queuetest"
)

var grepArgs = map[string]any{"pattern": "TODO", "path": "/usr/share"}

// TestActions_ReachTheQueue drives each action through Update and checks
// what the queue, the fake runner and the remembered-rules file saw.
func TestActions_ReachTheQueue(t *testing.T) {
	tests := []struct {
		name   string
		expect [][]string // commands the fake runner must see
		keys   func(h *harness)
		check  func(t *testing.T, h *harness, s queuetest.Submitted)
	}{
		{
			name:   "approve runs the command as shown",
			expect: [][]string{{"grep", "-rn", "--", "TODO", "/usr/share"}},
			keys:   func(h *harness) { h.press("a") },
			check: func(t *testing.T, h *harness, s queuetest.Submitted) {
				c := s.Out.Call
				if c.Status != queue.Done || c.Decider != queue.ByOperator {
					t.Errorf("call ended %s by %s, want done by operator", c.Status, c.Decider)
				}
			},
		},
		{
			name: "deny sends the reason to the agent",
			keys: func(h *harness) { h.press("d", "not on a Friday", "enter") },
			check: func(t *testing.T, h *harness, s queuetest.Submitted) {
				c := s.Out.Call
				if c.Status != queue.Denied || c.Decider != queue.ByOperator || c.Reason != "not on a Friday" {
					t.Errorf("call ended %s by %s with %q, want denied by operator with the reason", c.Status, c.Decider, c.Reason)
				}
			},
		},
		{
			name:   "edit runs the edited argv after the diff",
			expect: [][]string{{"grep", "-rn", "--", "FIXME me", "/usr/share"}},
			keys: func(h *harness) {
				h.press("e", "ctrl+u", `grep -rn -- 'FIXME me' /usr/share`, "enter")
				scr := h.screen()
				for _, want := range []string{"- TODO", "+ 'FIXME me'", "  /usr/share"} {
					if !strings.Contains(scr, want) {
						h.t.Errorf("review screen lacks %q:\n%s", want, scr)
					}
				}
				h.press("enter")
			},
			check: func(t *testing.T, h *harness, s queuetest.Submitted) {
				c := s.Out.Call
				if c.Original == nil || !slices.Equal(c.Original.Argv, []string{"grep", "-rn", "--", "TODO", "/usr/share"}) {
					t.Errorf("original argv %v, want the agent's", c.Original)
				}
				ran := h.f.Runner.Ran()
				if len(ran) != 1 || ran[0].Argv[3] != "FIXME me" {
					t.Errorf("runner got %v", ran)
				}
			},
		},
		{
			name: "session allow approves the next identical call by itself",
			expect: [][]string{{"grep", "-rn", "--", "TODO", "/usr/share"},
				{"grep", "-rn", "--", "TODO", "/usr/share"}},
			keys: func(h *harness) { h.press("s", "enter") },
			check: func(t *testing.T, h *harness, s queuetest.Submitted) {
				again := h.f.result(h.f.submit("grep_search", grepArgs))
				c := again.Out.Call
				if c.Status != queue.Done || c.Decider != queue.ByRule || c.Decision.Remembered != policy.Session {
					t.Errorf("second call ended %s by %s (%+v), want done by a session rule", c.Status, c.Decider, c.Decision)
				}
			},
		},
		{
			name:   "always allow saves the widened rule",
			expect: [][]string{{"grep", "-rn", "--", "TODO", "/usr/share"}},
			keys: func(h *harness) {
				h.press("A")
				if _, ok := h.m.dialog.(*alwaysDialog); !ok {
					h.t.Fatalf("no always dialog: %T", h.m.dialog)
				}
				// The cursor starts on "path"; widen it to a glob.
				h.press("w", "ctrl+u", "/usr/**", "enter")
				if !strings.Contains(h.screen(), `"path":"/usr/**"`) {
					h.t.Errorf("the shown rule is not widened:\n%s", h.screen())
				}
				h.press("enter")
			},
			check: func(t *testing.T, h *harness, s queuetest.Submitted) {
				data, err := os.ReadFile(filepath.Join(h.f.State, "remembered.json"))
				if err != nil {
					t.Fatal(err)
				}
				if !strings.Contains(string(data), `"path": "/usr/**"`) || !strings.Contains(string(data), `"exact": "TODO"`) {
					t.Errorf("remembered file:\n%s", data)
				}
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFixture(t, nil)
			for _, argv := range tt.expect {
				f.Runner.Expect(argv...).Stdout("found\n")
			}
			h := newHarness(t, f, nil)
			id, ch := h.pending("grep_search", grepArgs)
			h.pastGrace()
			tt.keys(h)
			s := f.result(ch)
			if s.Err != nil {
				t.Fatalf("submit: %v", s.Err)
			}
			h.until(func(ev queue.Event) bool { return ev.Call.ID == id && ev.Call.Status.Ended() })
			if h.m.status.err != nil {
				t.Errorf("status error: %v", h.m.status.err)
			}
			tt.check(t, h, s)
		})
	}
}

// TestActions_Kill ends a running call.
func TestActions_Kill(t *testing.T) {
	f := newFixture(t, nil)
	run := f.Runner.Expect("grep", "-rn", "--", "TODO", "/usr/share")
	run.Hold = make(chan struct{})
	h := newHarness(t, f, nil)
	id, ch := h.pending("grep_search", grepArgs)
	h.pastGrace()
	h.press("x") // not running yet: nothing to kill
	if h.m.status.text != "" || h.m.status.err != nil {
		t.Errorf("x on a pending call reported %+v", h.m.status)
	}
	h.press("a")
	h.untilStatus(id, queue.Running)
	h.press("x")
	s := f.result(ch)
	if c := s.Out.Call; !c.Killed || c.Result == nil || !c.Result.Cancelled {
		t.Errorf("call %+v, want killed", c)
	}
	h.untilStatus(id, queue.Done)
	if !strings.Contains(h.screen(), "killed") {
		t.Errorf("screen does not say killed:\n%s", h.screen())
	}
}

// TestActions_ErrorsReachTheStatusLine reports a failed action.
func TestActions_ErrorsReachTheStatusLine(t *testing.T) {
	f := newFixture(t, nil)
	h := newHarness(t, f, nil)
	id, ch := h.pending("grep_search", grepArgs)
	h.pastGrace()
	if err := f.Queue.Deny(id, "elsewhere"); err != nil {
		t.Fatal(err)
	}
	f.result(ch)
	h.press("a") // the model has not seen the denial yet
	if h.m.status.err == nil || !strings.Contains(h.m.status.err.Error(), "already denied") {
		t.Fatalf("status %+v, want the queue's refusal", h.m.status)
	}
	if !strings.Contains(h.screen(), "already denied") {
		t.Errorf("the status line does not show the error:\n%s", h.screen())
	}
}
