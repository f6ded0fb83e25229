package ui

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/assent-sh/assent/queue"
)

var listArgs = map[string]any{"words": []any{"src/a.go", "src/b.go"}}

// TestAlwaysDialog_WidenKeepsTheListCovered widens a list parameter: the
// field starts with a glob that matches every item, and the saved rule
// covers the call it was made from.
func TestAlwaysDialog_WidenKeepsTheListCovered(t *testing.T) {
	f := newFixture(t, nil)
	f.Runner.Expect("echo", "--", "src/a.go", "src/b.go").Stdout("src/a.go src/b.go\n")
	h := newHarness(t, f, nil)
	id, ch := h.pending("say", listArgs)
	h.pastGrace()
	h.press("A", "w")
	d, ok := h.m.dialog.(*alwaysDialog)
	if !ok || !d.editing {
		t.Fatalf("no widen field: %T", h.m.dialog)
	}
	if got := d.input.Value(); got != "src/*.go" {
		t.Errorf("the widen field starts with %q, want a glob of every item, src/*.go", got)
	}
	h.press("enter", "enter")
	f.result(ch)
	h.untilStatus(id, queue.Done)
	if h.m.status.err != nil {
		t.Fatalf("status error: %v", h.m.status.err)
	}
	data, err := os.ReadFile(filepath.Join(f.State, "remembered.json"))
	if err != nil || !strings.Contains(string(data), `"src/*.go"`) {
		t.Errorf("remembered rules (%v):\n%s", err, data)
	}
}

// TestAlwaysDialog_ShowsTheQueuesRefusal widens a list to a glob that
// misses an item: the queue refuses the rule, nothing is approved, and the
// dialog is open again with the queue's reason.
func TestAlwaysDialog_ShowsTheQueuesRefusal(t *testing.T) {
	f := newFixture(t, nil)
	h := newHarness(t, f, nil)
	id, _ := h.pending("say", listArgs)
	h.pastGrace()
	h.press("A", "w", "ctrl+u", "src/a.go", "enter", "enter")
	if _, ok := h.m.dialog.(*alwaysDialog); !ok {
		t.Fatalf("the dialog did not open again: %T, status %+v", h.m.dialog, h.m.status)
	}
	if scr := h.screen(); !strings.Contains(scr, "does not cover this call") {
		t.Errorf("the dialog does not show the queue's reason:\n%s", scr)
	}
	if c, _ := f.Queue.Call(id); c.Status != queue.Pending {
		t.Errorf("the call is %s, want still pending", c.Status)
	}
	h.press("esc")
	if h.m.dialog != nil {
		t.Errorf("esc left the %T open", h.m.dialog)
	}
}

// TestShellTool_NoRememberedRule offers no remembered rule for a shell
// tool, which no rule ever approves, and says why.
func TestShellTool_NoRememberedRule(t *testing.T) {
	for _, k := range []string{"A", "s"} {
		t.Run(k, func(t *testing.T) {
			f := newFixture(t, nil)
			h := newHarness(t, f, nil)
			id, _ := h.pending("run_shell", map[string]any{"script": "ls"})
			h.pastGrace()
			if strings.Contains(h.screen(), "A always") || strings.Contains(h.screen(), "s session") {
				t.Errorf("the help bar offers a rule for a shell tool:\n%s", h.screen())
			}
			h.press(k)
			if h.m.dialog != nil || !strings.Contains(h.m.status.text, "shell tool") {
				t.Errorf("%s on a shell tool: dialog %T, status %+v", k, h.m.dialog, h.m.status)
			}
			if c, _ := f.Queue.Call(id); c.Status != queue.Pending {
				t.Errorf("the call is %s", c.Status)
			}
		})
	}
}

// TestCoverGlob checks the glob the widen field starts with.
func TestCoverGlob(t *testing.T) {
	for _, tt := range []struct {
		vals []string
		want string
	}{
		{[]string{"a*b"}, `a\*b`},
		{[]string{"src/a.go", "src/b.go"}, "src/*.go"},
		{[]string{"hello", "there"}, "*"},
		{[]string{"ab", "abab"}, "ab*"},
		{[]string{"aXa", "aa"}, "a*a"},
		{[]string{"é1", "é2"}, "é*"},
		{[]string{"xé", "yé"}, "*é"},
	} {
		if got := coverGlob(tt.vals); got != tt.want {
			t.Errorf("coverGlob(%q) = %q, want %q", tt.vals, got, tt.want)
		}
	}
}

// TestAlwaysDialog_MasksSecrets shows the rule with secret values masked
// and warns that the saved rule holds them.
func TestAlwaysDialog_MasksSecrets(t *testing.T) {
	f := newFixture(t, nil)
	h := newHarness(t, f, nil)
	h.pending("deploy", map[string]any{"format": "%Y", "token": `hun"ter2`})
	h.pastGrace()
	h.press("A")
	scr := h.screen()
	if _, ok := h.m.dialog.(*alwaysDialog); !ok || strings.Contains(scr, "hun") || !strings.Contains(scr, "secret values") {
		t.Errorf("always dialog for a call with a secret:\n%s", scr)
	}
}

// TestAlwaysDialog_SecretHidesNothingElse: the agent repeats its secret in
// another argument; that argument is shown as it is, in the list and in the
// rule, and only the secret parameter's value is masked.
func TestAlwaysDialog_SecretHidesNothingElse(t *testing.T) {
	f := newFixture(t, nil)
	h := newHarness(t, f, nil)
	h.pending("deploy", map[string]any{"format": "%Y-tok3n-value", "token": "tok3n-value"})
	h.pastGrace()
	h.press("A")
	scr := h.screen()
	if !strings.Contains(scr, "format  %Y-tok3n-value") || !strings.Contains(scr, "token   '"+secretMask+"'") ||
		strings.Contains(scr, `"tok3n-value"`) || strings.Contains(scr, "%Y-"+secretMask) {
		t.Errorf("always dialog, the secret repeated in another argument:\n%s", scr)
	}
}
