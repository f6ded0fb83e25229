package ui

import (
	"slices"
	"strings"
	"testing"

	"github.com/assent-sh/assent/queue"
)

// TestActions_Filter shows only matching calls and clears with esc.
func TestActions_Filter(t *testing.T) {
	f := newFixture(t, nil)
	f.Runner.Expect("uname", "kernel").Stdout("Linux\n")
	h := newHarness(t, f, nil)
	f.result(f.submit("look", map[string]any{"what": "kernel"}))
	h.until(func(ev queue.Event) bool { return ev.Call.Status == queue.Done })
	h.pending("grep_search", grepArgs)
	h.pastGrace()

	tests := []struct {
		filter string
		want   []string
	}{
		{"look", []string{"look"}},
		{"PEND", []string{"grep_search"}},
		{"claude", []string{"grep_search", "look"}},
		{"nothing-matches", nil},
	}
	for _, tt := range tests {
		t.Run(tt.filter, func(t *testing.T) {
			h.press("/", tt.filter)
			var got []string
			for _, e := range h.m.calls.shown {
				got = append(got, e.call.Tool)
			}
			if !slices.Equal(got, tt.want) {
				t.Errorf("filter %q shows %v, want %v", tt.filter, got, tt.want)
			}
			h.press("esc")
			if len(h.m.calls.shown) != 2 || h.m.filtering {
				t.Errorf("esc left %d calls shown, filtering %v", len(h.m.calls.shown), h.m.filtering)
			}
		})
	}
	h.press("/", "look", "enter")
	if h.m.filtering || len(h.m.calls.shown) != 1 || !strings.Contains(h.screen(), "/look 1 of 2") {
		t.Errorf("enter did not keep the filter:\n%s", h.screen())
	}
}

// TestActions_QuitWithPending asks first, then denies waiting calls with
// "console closed" and kills running ones.
func TestActions_QuitWithPending(t *testing.T) {
	f := newFixture(t, nil)
	run := f.Runner.Expect("uname", "kernel")
	run.Hold = make(chan struct{})
	h := newHarness(t, f, nil)
	running := f.submit("look", map[string]any{"what": "kernel"})
	h.until(func(ev queue.Event) bool { return ev.Call.Status == queue.Running })
	_, pending := h.pending("grep_search", grepArgs)
	h.pastGrace()

	h.press("q")
	if _, ok := h.m.dialog.(*quitDialog); !ok || h.quit {
		t.Fatalf("q with calls waiting did not ask: dialog %T, quit %v", h.m.dialog, h.quit)
	}
	h.press("esc")
	if h.m.dialog != nil || h.quit {
		t.Fatal("esc did not keep the console open")
	}
	h.press("q", "y")
	if !h.quit {
		t.Fatal("y did not quit")
	}
	if c := f.result(pending).Out.Call; c.Status != queue.Denied || c.Reason != closeReason {
		t.Errorf("pending call ended %s with %q, want denied with %q", c.Status, c.Reason, closeReason)
	}
	if c := f.result(running).Out.Call; c.Result == nil || !c.Result.Cancelled {
		t.Errorf("running call ended %+v, want cancelled", c.Result)
	}
}

// TestActions_QuitWhenIdle quits at once and closes the queue.
func TestActions_QuitWhenIdle(t *testing.T) {
	f := newFixture(t, nil)
	h := newHarness(t, f, nil)
	h.press("q")
	if !h.quit {
		t.Fatal("q with nothing waiting did not quit")
	}
	if _, err := f.Queue.Submit(t.Context(), queue.Request{Tool: f.Config().Tool("look"), Args: map[string]any{"what": "x"}}); err != queue.ErrClosed {
		t.Errorf("submit after quit: %v, want ErrClosed", err)
	}
}

// TestActions_Bell rings for a new pending call unless told not to.
func TestActions_Bell(t *testing.T) {
	for _, quiet := range []bool{false, true} {
		t.Run(map[bool]string{false: "rings", true: "quiet"}[quiet], func(t *testing.T) {
			f := newFixture(t, nil)
			h := newHarness(t, f, func(o *Options) { o.NoBell = quiet })
			h.pending("grep_search", grepArgs)
			if want := map[bool]int{false: 1, true: 0}[quiet]; h.bells != want {
				t.Errorf("bells %d, want %d", h.bells, want)
			}
		})
	}
}
