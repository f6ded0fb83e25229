package ui

import (
	"strings"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"

	"github.com/assent-sh/assent/queue"
)

// denyDialog asks for the reason the agent receives with a denial.
type denyDialog struct {
	id    queue.ID
	title string
	input textinput.Model
	w, h  int
	fk    formKeys
}

func newDenyDialog(st Styles, c *queue.Call) *denyDialog {
	in := textinput.New()
	in.Prompt = "reason: "
	in.Placeholder = "optional; the agent receives it"
	in.CharLimit = 1000
	in.SetStyles(st.TextInput)
	in.KeyMap.Paste.SetEnabled(false) // the terminal's paste arrives as a message the console checks
	fk := defaultFormKeys()
	fk.Confirm.SetHelp("enter", "deny")
	return &denyDialog{id: c.ID, title: "deny " + c.ID.String() + " " + clean(c.Tool), input: in, fk: fk}
}

func (d *denyDialog) init() tea.Cmd       { return d.input.Focus() }
func (d *denyDialog) about() queue.ID     { return d.id }
func (d *denyDialog) keys() []key.Binding { return []key.Binding{d.fk.Confirm, d.fk.Cancel} }

func (d *denyDialog) setSize(w, h int) {
	d.w, d.h = dialogWidth(w), h
	d.input.SetWidth(textWidth(d.w) - len(d.input.Prompt) - 1) // and the cursor
}

func (d *denyDialog) update(msg tea.Msg) (dialog, action, tea.Cmd) {
	switch {
	case isCancel(msg, d.fk):
		return nil, nil, nil
	case isConfirm(msg, d.fk):
		return nil, denyAction{d.id, strings.TrimSpace(d.input.Value())}, nil
	}
	var cmd tea.Cmd
	d.input, cmd = d.input.Update(msg)
	return d, nil, cmd
}

func (d *denyDialog) view(st *Styles) []string {
	lines := []string{
		"Deny the call. The agent receives this reason:",
		"",
		d.input.View(),
		"",
		st.Muted.Render("enter deny · esc cancel (nothing is sent)"),
	}
	return frame(st.Dialog, st.Title.Render(d.title), d.w, d.h, lines)
}
