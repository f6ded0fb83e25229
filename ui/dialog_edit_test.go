package ui

import (
	"strings"
	"testing"

	"github.com/assent-sh/assent/queue"
)

// TestEditDialog_Refusals keeps bad edits from the queue.
func TestEditDialog_Refusals(t *testing.T) {
	tests := []struct {
		name, text, want string
	}{
		{"shell syntax", "grep -rn -- TODO /usr/share; rm -rf /", "more than one command"},
		{"unchanged", "grep -rn -- TODO /usr/share", "unchanged"},
		{"empty", " ", "empty"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFixture(t, nil)
			h := newHarness(t, f, nil)
			id, _ := h.pending("grep_search", grepArgs)
			h.pastGrace()
			h.press("e", "ctrl+u", tt.text, "enter")
			d, ok := h.m.dialog.(*editDialog)
			if !ok || d.reviewing || !strings.Contains(h.screen(), tt.want) {
				t.Fatalf("dialog %T reviewing; screen lacks %q:\n%s", h.m.dialog, tt.want, h.screen())
			}
			if c, _ := f.Queue.Call(id); c.Status != queue.Pending {
				t.Errorf("call is %s", c.Status)
			}
		})
	}
	t.Run("secrets", func(t *testing.T) {
		f := newFixture(t, nil)
		h := newHarness(t, f, nil)
		h.pending("deploy", map[string]any{"format": "%Y", "token": "hunter2"})
		h.pastGrace()
		h.press("e")
		if h.m.dialog != nil || !strings.Contains(h.m.status.text, "secret") {
			t.Errorf("edit of a call with secrets: dialog %T, status %+v", h.m.dialog, h.m.status)
		}
	})
}

// TestEditDialog_EditAgain goes back from the review to the text, which
// keeps the edit.
func TestEditDialog_EditAgain(t *testing.T) {
	f := newFixture(t, nil)
	h := newHarness(t, f, nil)
	h.pending("grep_search", grepArgs)
	h.pastGrace()
	h.press("e", "ctrl+u", "grep -rn -- x /usr", "enter")
	d, ok := h.m.dialog.(*editDialog)
	if !ok || !d.reviewing {
		t.Fatalf("not reviewing: %T", h.m.dialog)
	}
	h.press("e")
	if d.reviewing || d.area.Value() != "grep -rn -- x /usr" {
		t.Errorf("e: reviewing %v, text %q", d.reviewing, d.area.Value())
	}
}
