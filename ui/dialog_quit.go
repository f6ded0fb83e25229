package ui

import (
	"fmt"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/assent-sh/assent/human"
	"github.com/assent-sh/assent/queue"
)

// quitDialog asks before quitting ends calls that wait or run.
type quitDialog struct {
	pending, running int
	w, h             int
	fk               formKeys
}

func newQuitDialog(pending, running int) *quitDialog {
	fk := defaultFormKeys()
	fk.Yes.SetHelp("y", "quit")
	return &quitDialog{pending: pending, running: running, fk: fk}
}

func (d *quitDialog) init() tea.Cmd       { return nil }
func (d *quitDialog) about() queue.ID     { return 0 }
func (d *quitDialog) keys() []key.Binding { return []key.Binding{d.fk.Yes, d.fk.Cancel} }
func (d *quitDialog) setSize(w, h int)    { d.w, d.h = min(dialogWidth(w), 64), h }

func (d *quitDialog) update(msg tea.Msg) (dialog, action, tea.Cmd) {
	if k, ok := msg.(tea.KeyPressMsg); ok && key.Matches(k, d.fk.Yes) {
		return nil, quitAction{}, nil
	}
	if isCancel(msg, d.fk) {
		return nil, nil, nil
	}
	return d, nil, nil
}

// plural chooses the words for n calls: one for 1, many otherwise.
func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

func (d *quitDialog) view(st *Styles) []string {
	var lines []string
	if d.pending > 0 {
		lines = append(lines, wordWrap(fmt.Sprintf("%s %s for you: %s denied (%q).", human.Count(d.pending, "call"),
			plural(d.pending, "waits", "wait"), plural(d.pending, "it will be", "they will be"), closeReason), textWidth(d.w), "")...)
	}
	if d.running > 0 {
		lines = append(lines, wordWrap(fmt.Sprintf("%s %s: %s killed.", human.Count(d.running, "call"),
			plural(d.running, "runs", "run"), plural(d.running, "it will be", "they will be")), textWidth(d.w), "")...)
	}
	lines = append(lines, "", st.Muted.Render("y quit · esc stay"))
	return frame(st.Dialog, st.Title.Render("quit assent?"), d.w, d.h, lines)
}
