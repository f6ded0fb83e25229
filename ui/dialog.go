package ui

import (
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/assent-sh/assent/queue"
)

// A dialog takes the keys while it is open. It never calls the queue: it
// returns an action, and the root model performs it. Esc closes every
// dialog without an action.
type dialog interface {
	// init returns the command the dialog needs when it opens.
	init() tea.Cmd
	// update handles a key or a paste and returns the dialog to show
	// next (nil closes it) and the action the operator chose, if any.
	update(msg tea.Msg) (dialog, action, tea.Cmd)
	// view draws the dialog's box.
	view(st *Styles) []string
	// setSize gives the dialog the screen's width and the body's height.
	setSize(width, height int)
	// about is the call the dialog decides, or 0.
	about() queue.ID
	// keys are the dialog's keys for the help bar.
	keys() []key.Binding
}

// refusable is a dialog whose action the queue may refuse while the call
// still waits; it opens again and shows the queue's reason.
type refusable interface {
	dialog
	refused(err error)
}

// dialogWidth is how wide a dialog is on a screen w cells wide.
func dialogWidth(w int) int { return max(40, min(w-4, 100)) }

// textWidth is the room for text inside a dialog w cells wide: its two
// edges and one cell of padding on each side.
func textWidth(w int) int { return pane{pad: 1}.textWidth(w) }

// frame draws a dialog's box around its lines, as tall as they need and
// no taller than maxH.
func frame(border Style, title string, w, maxH int, lines []string) []string {
	h := min(len(lines)+2, maxH)
	if len(lines) > h-2 {
		lines = append(lines[:max(0, h-3)], "…")
	}
	return box(border, title, w, h, 1, lines)
}

// isCancel reports whether msg is the key that closes a dialog.
func isCancel(msg tea.Msg, fk formKeys) bool {
	k, ok := msg.(tea.KeyPressMsg)
	return ok && key.Matches(k, fk.Cancel)
}

// isConfirm reports whether msg is the key that confirms a dialog.
func isConfirm(msg tea.Msg, fk formKeys) bool {
	k, ok := msg.(tea.KeyPressMsg)
	return ok && key.Matches(k, fk.Confirm)
}
