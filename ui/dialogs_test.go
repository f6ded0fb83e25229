package ui

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/assent-sh/assent/queue"
)

// dialogOpeners are the keys that open each dialog on a pending call,
// some with text typed or a second step taken.
var dialogOpeners = []struct {
	name string
	keys []string
}{
	{"deny", []string{"d"}},
	{"deny with a reason typed", []string{"d", "because"}},
	{"edit", []string{"e"}},
	{"edit under review", []string{"e", "ctrl+u", "grep -rn -- x /usr", "enter"}},
	{"always", []string{"A"}},
	{"always widening", []string{"A", "w"}},
	{"always widened", []string{"A", "w", "ctrl+u", "/usr/*", "enter"}},
	{"session", []string{"s"}},
	{"session, every client", []string{"s", "down"}},
	{"quit", []string{"q"}},
	{"help", []string{"?"}},
	{"connect", []string{"c"}},
}

// TestDialogs_EscNeverApproves closes every dialog with one esc, whatever
// step it is at, and checks that the call still waits and nothing ran.
func TestDialogs_EscNeverApproves(t *testing.T) {
	for _, tt := range dialogOpeners {
		t.Run(tt.name, func(t *testing.T) {
			f := newFixture(t, nil) // the fake runner fails on any run
			h := newHarness(t, f, nil)
			id, _ := h.pending("grep_search", grepArgs)
			h.pastGrace()
			h.press(tt.keys...)
			if h.m.dialog == nil {
				t.Fatalf("%v opened no dialog", tt.keys)
			}
			if d, ok := h.m.dialog.(*alwaysDialog); ok && d.editing {
				// Esc in the widen field closes the field only.
				h.press("esc")
				if h.m.dialog == nil || d.editing {
					t.Fatalf("esc in the widen field: dialog %T, editing %v; want the dialog without the field", h.m.dialog, d.editing)
				}
			}
			h.press("esc")
			if h.m.dialog != nil {
				t.Fatalf("esc did not close the %T", h.m.dialog)
			}
			c, err := f.Queue.Call(id)
			if err != nil || c.Status != queue.Pending {
				t.Errorf("after esc the call is %s (%v), want pending", c.Status, err)
			}
			if h.quit || h.m.quitting {
				t.Error("esc quit the console")
			}
		})
	}
}

// TestDialogs_CloseWhenSettledElsewhere closes a dialog whose call was
// settled by something other than this console's operator.
func TestDialogs_CloseWhenSettledElsewhere(t *testing.T) {
	settlers := []struct {
		name   string
		opts   func(o *queue.Options)
		settle func(f *fixture, id queue.ID, cancel context.CancelFunc)
		want   string
	}{
		{"another console approves", nil, func(f *fixture, id queue.ID, _ context.CancelFunc) {
			if err := f.Queue.Approve(id); err != nil {
				f.T.Fatal(err)
			}
		}, "approved by the operator"},
		{"another console denies", nil, func(f *fixture, id queue.ID, _ context.CancelFunc) {
			if err := f.Queue.Deny(id, "no"); err != nil {
				f.T.Fatal(err)
			}
		}, "denied by the operator: no"},
		{"the approval times out", func(o *queue.Options) { o.ApprovalTimeout = 50 * time.Millisecond },
			func(*fixture, queue.ID, context.CancelFunc) {}, "denied (timeout)"},
		{"the client cancels", nil, func(_ *fixture, _ queue.ID, cancel context.CancelFunc) { cancel() },
			"cancelled (client)"},
	}
	for _, s := range settlers {
		for _, d := range dialogOpeners[:9] {
			t.Run(s.name+"/"+d.name, func(t *testing.T) {
				f := newFixture(t, s.opts)
				if strings.Contains(s.name, "approves") {
					f.Runner.Expect("grep", "-rn", "--", "TODO", "/usr/share")
				}
				h := newHarness(t, f, nil)
				ctx, cancel := context.WithCancel(context.Background())
				defer cancel()
				go f.Queue.Submit(ctx, queue.Request{Tool: f.Config().Tool("grep_search"), Args: grepArgs})
				id := h.until(func(ev queue.Event) bool { return ev.Kind == queue.EventPending }).Call.ID
				h.pastGrace()
				h.press(d.keys...)
				if h.m.dialog == nil {
					t.Fatal("no dialog")
				}
				s.settle(f, id, cancel)
				h.until(func(ev queue.Event) bool { return ev.Call.ID == id && ev.Kind == queue.EventDecided })
				if h.m.dialog != nil {
					t.Fatalf("the %T stayed open", h.m.dialog)
				}
				if err := h.m.status.err; err == nil || !strings.Contains(err.Error(), "settled while its dialog was open: "+s.want) {
					t.Errorf("status %v, want it to say the call was settled: %s", err, s.want)
				}
				if strings.Contains(s.name, "approves") {
					h.untilStatus(id, queue.Done) // the run the other console allowed
				}
			})
		}
	}
}

// TestGrace_SwallowsKeys ignores keys right after a pending call selects
// itself, and not after the operator selects one.
func TestGrace_SwallowsKeys(t *testing.T) {
	f := newFixture(t, nil)
	f.Runner.Expect("grep", "-rn", "--", "TODO", "/usr/share")
	f.Runner.Expect("grep", "-rn", "--", "TODO", "/usr/lib")
	h := newHarness(t, f, nil)
	first, ch1 := h.pending("grep_search", grepArgs)

	for _, k := range []string{"a", "d", "e", "s", "enter", "q"} {
		h.press(k)
		if h.m.dialog != nil || h.quit {
			t.Fatalf("%q acted in the grace period", k)
		}
	}
	if c, _ := f.Queue.Call(first); c.Status != queue.Pending {
		t.Fatalf("a key in the grace period settled the call: %s", c.Status)
	}

	second, ch2 := h.pending("grep_search", map[string]any{"pattern": "TODO", "path": "/usr/lib"})
	h.pastGrace()
	h.press("a") // approves the first: a second call does not take the selection
	f.result(ch1)
	h.untilStatus(first, queue.Approved)
	if h.m.selected != second || !h.m.inGrace() {
		t.Fatalf("after the first was settled, selected %v in grace %v; want %v in grace", h.m.selected, h.m.inGrace(), second)
	}
	h.press("a")
	if c, _ := f.Queue.Call(second); c.Status != queue.Pending {
		t.Fatal("a stray second keystroke approved the next call")
	}
	h.pastGrace()
	h.press("down", "up") // chosen by the operator: no grace
	if h.m.inGrace() {
		t.Fatal("a selection the operator made started the grace period")
	}
	h.press("a")
	f.result(ch2)
}

// TestChangeDialog applies a config change only on confirmation.
func TestChangeDialog(t *testing.T) {
	f := newFixture(t, nil)
	h := newHarness(t, f, nil)
	applied := 0
	change := Change{Summary: []string{"+ tool fetch", "- rule \x1b]52;c;aGk=\x07old", "~ tool grep_search: command changed"},
		Apply: func() error { applied++; return nil }}

	h.send(changeMsg{change})
	if _, ok := h.m.dialog.(*changeDialog); !ok {
		t.Fatalf("a change opened %T", h.m.dialog)
	}
	h.press("enter") // in the grace period
	if applied != 0 || h.m.dialog == nil {
		t.Fatal("enter in the grace period applied the change")
	}
	scr := h.screen()
	if strings.ContainsRune(scr, 0x1b) || !strings.Contains(scr, `- rule \x1b]52;c;aGk=\x07old`) {
		t.Errorf("the summary is not escaped:\n%q", scr)
	}
	h.pastGrace()
	h.press("esc")
	if applied != 0 || h.m.dialog != nil || h.m.change == nil {
		t.Fatalf("esc: applied %d, dialog %T, waiting %v", applied, h.m.dialog, h.m.change != nil)
	}
	if !strings.Contains(h.screen(), "config changed (C)") {
		t.Errorf("header does not show the waiting change:\n%s", h.screen())
	}
	h.press("C", "enter")
	if applied != 1 || h.m.change != nil || h.m.status.text != "applied the config change" {
		t.Errorf("C, enter: applied %d, waiting %v, status %+v", applied, h.m.change != nil, h.m.status)
	}

	h.send(changeMsg{Change{Err: errors.New("tools.json:3:7: unknown key \"comand\"")}})
	h.pastGrace()
	h.press("enter")
	if h.m.dialog == nil || !strings.Contains(h.screen(), `unknown key "comand"`) {
		t.Fatalf("a change that does not load is not shown:\n%s", h.screen())
	}
	h.press("esc")
	if h.m.dialog != nil || h.m.change != nil || applied != 1 {
		t.Error("a change that does not load left something to apply")
	}

	// A bad edit, then reverted: the files differ in nothing from what is
	// in force, so nothing waits behind C.
	h.send(changeMsg{Change{Summary: []string{"~ tool look: command changed"}, Apply: func() error { return nil }}})
	h.send(changeMsg{Change{Apply: func() error { applied++; return nil }}})
	if h.m.dialog != nil || h.m.change != nil || strings.Contains(h.screen(), "config changed (C)") {
		t.Errorf("a change back to what is in force: dialog %T, waiting %v:\n%s", h.m.dialog, h.m.change != nil, h.screen())
	}
}

// The always dialog names the file the rule is saved to.
func TestAlways_NamesTheRememberedFile(t *testing.T) {
	f := newFixture(t, nil)
	h := newHarness(t, f, func(o *Options) { o.RememberedFile = "/home/me/.local/state/assent/remembered.json" })
	id, res := h.pending("grep_search", map[string]any{"pattern": "x", "path": "/usr/lib"})
	h.pastGrace()
	h.press("A")
	if screen := strings.Join(strings.Fields(h.screen()), " "); !strings.Contains(screen, "/home/me/.local/state/assent/remem") ||
		!strings.Contains(screen, "save this rule to") {
		t.Fatalf("the always dialog does not name the file:\n%s", h.screen())
	}
	if err := f.Queue.Deny(id, ""); err != nil {
		t.Fatal(err)
	}
	<-res
}
