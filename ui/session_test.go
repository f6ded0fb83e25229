package ui

import (
	"strings"
	"testing"

	"github.com/assent-sh/assent/queue"
)

// TestSessionDialog_ScopesToTheClient allows a call for this session from
// its own client by default, and from every client only when chosen: a
// call from another client asks again unless the operator chose all.
func TestSessionDialog_ScopesToTheClient(t *testing.T) {
	tests := []struct {
		name       string
		keys       []string
		otherAsks  bool
		statusWord string
	}{
		{"this client by default", []string{"s", "enter"}, true, "from claude-code"},
		{"every client when chosen", []string{"s", "down", "enter"}, false, "from every client"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFixture(t, nil)
			runs := 3
			if tt.otherAsks {
				runs = 2
			}
			for range runs {
				f.Runner.Expect("grep", "-rn", "--", "TODO", "/usr/share").Stdout("found\n")
			}
			h := newHarness(t, f, nil)
			id, ch := h.pending("grep_search", grepArgs)
			h.pastGrace()
			h.press(tt.keys[:1]...)
			if scr := h.screen(); !strings.Contains(scr, "from claude-code only") || !strings.Contains(scr, "from every client") {
				t.Fatalf("the session dialog does not name the client and the choice:\n%s", scr)
			}
			h.press(tt.keys[1:]...)
			f.result(ch)
			h.untilStatus(id, queue.Done)
			if !strings.Contains(h.m.status.text, tt.statusWord) {
				t.Errorf("status %+v, want it to say %q", h.m.status, tt.statusWord)
			}
			// The same call from the same client passes by itself.
			again := f.result(f.submit("grep_search", grepArgs)).Out.Call
			if again.Decider != queue.ByRule {
				t.Errorf("the same client's next call was decided by %s, want the session rule", again.Decider)
			}
			// From another client it asks, unless every client was chosen.
			req := f.Request("grep_search", grepArgs)
			req.Client = "another-agent"
			other := f.SubmitAsync(t.Context(), req)
			if tt.otherAsks {
				ev := h.until(func(ev queue.Event) bool { return ev.Kind == queue.EventPending && ev.Call.Client == "another-agent" })
				if err := f.Queue.Deny(ev.Call.ID, "test"); err != nil {
					t.Fatal(err)
				}
				f.result(other)
				return
			}
			if c := f.result(other).Out.Call; c.Decider != queue.ByRule {
				t.Errorf("another client's call was decided by %s, want the session rule for every client", c.Decider)
			}
		})
	}
}
