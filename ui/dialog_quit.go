package ui

import (
	"fmt"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

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

func (d *quitDialog) view(st *Styles) []string {
	var lines []string
	if d.pending > 0 {
		lines = append(lines, wordWrap(fmt.Sprintf("%d call(s) wait for you: they will be denied (%q).",
			d.pending, closeReason), textWidth(d.w), "")...)
	}
	if d.running > 0 {
		lines = append(lines, wordWrap(fmt.Sprintf("%d call(s) run: they will be killed.", d.running), textWidth(d.w), "")...)
	}
	lines = append(lines, "", st.Muted.Render("y quit · esc stay"))
	return frame(st.Dialog, st.Title.Render("quit assent?"), d.w, d.h, lines)
}
