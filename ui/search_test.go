package ui

import (
	"fmt"
	"strings"
	"testing"

	"github.com/assent-sh/assent/queue"
)

// TestOutput_Search finds text in the focused output pane with /, moves
// between matches with n and N, and wraps around the ends.
func TestOutput_Search(t *testing.T) {
	f := newFixture(t, nil)
	var out strings.Builder
	for i := range 300 {
		word := "ok"
		if i == 40 || i == 120 || i == 250 {
			word = "ERROR"
		}
		fmt.Fprintf(&out, "line %03d %s\n", i, word)
	}
	f.Runner.Expect("uname", "kernel").Stdout(out.String())
	h := newHarness(t, f, nil)
	f.result(f.submit("look", map[string]any{"what": "kernel"}))
	h.until(func(ev queue.Event) bool { return ev.Call.Status == queue.Done })
	h.press("tab", "g", "/", "error", "enter")
	steps := []struct {
		keys []string
		line int64
	}{
		{nil, 40},
		{[]string{"n"}, 120},
		{[]string{"n"}, 250},
		{[]string{"n"}, 40}, // wrapped
		{[]string{"N"}, 250},
		{[]string{"N"}, 120},
	}
	for _, s := range steps {
		h.press(s.keys...)
		want := fmt.Sprintf("line %03d ERROR", s.line)
		if h.m.search.line != s.line || !strings.Contains(h.screen(), want) {
			t.Fatalf("after %v: found line %d, want %d on screen:\n%s", s.keys, h.m.search.line, s.line, h.screen())
		}
	}
	if !strings.Contains(h.screen(), "/error · line 121 · n/N") {
		t.Errorf("the pane does not say what was found:\n%s", h.screen())
	}
	h.press("/", "ctrl+u", "nowhere", "enter")
	if h.m.search.line != -1 || !strings.Contains(h.m.status.text, `"nowhere" is not in the 300 lines kept`) {
		t.Errorf("a missing text: line %d, status %+v", h.m.search.line, h.m.status)
	}
}
