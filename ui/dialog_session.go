package ui

import (
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/assent-sh/assent/queue"
)

// sessionDialog approves a call and allows the same call again, without
// asking, until assent stops: from the call's own client by default, or
// from every client when the operator chooses so.
type sessionDialog struct {
	id     queue.ID
	title  string
	client string
	all    bool // every client, not only the call's
	err    error
	w, h   int
	fk     formKeys
}

func newSessionDialog(c *queue.Call) *sessionDialog {
	fk := defaultFormKeys()
	fk.Confirm.SetHelp("enter", "approve and allow")
	return &sessionDialog{id: c.ID, title: "allow for this session " + c.ID.String() + " " + clean(c.Tool),
		client: c.Client, fk: fk}
}

func (d *sessionDialog) init() tea.Cmd     { return nil }
func (d *sessionDialog) about() queue.ID   { return d.id }
func (d *sessionDialog) refused(err error) { d.err = err }
func (d *sessionDialog) setSize(w, h int)  { d.w, d.h = min(dialogWidth(w), 72), h }
func (d *sessionDialog) keys() []key.Binding {
	return []key.Binding{d.fk.Confirm, d.fk.Up, d.fk.Down, d.fk.Cancel}
}

func (d *sessionDialog) update(msg tea.Msg) (dialog, action, tea.Cmd) {
	k, _ := msg.(tea.KeyPressMsg)
	switch {
	case isCancel(msg, d.fk):
		return nil, nil, nil
	case isConfirm(msg, d.fk):
		return nil, sessionAction{id: d.id, allClients: d.all, client: d.client, from: d}, nil
	case key.Matches(k, d.fk.Up):
		d.all = false
	case key.Matches(k, d.fk.Down):
		d.all = true
	}
	return d, nil, nil
}

func (d *sessionDialog) view(st *Styles) []string {
	inner := textWidth(d.w)
	lines := wordWrap("Approve, and until assent stops, allow this tool with exactly these arguments without asking:", inner, "")
	lines = append(lines, "")
	choices := []string{"from " + clientName(d.client) + " only", "from every client"}
	for i, c := range choices {
		marker := "  "
		if (i == 1) == d.all {
			marker = iconSelected + " "
		}
		lines = append(lines, wrap(marker+c, inner, "    ")...)
	}
	if d.err != nil {
		lines = append(lines, "")
		lines = append(lines, wordWrap(st.Error.Render(iconDenied+" "+clean(d.err.Error())), inner, "  ")...)
	}
	lines = append(lines, "", st.Muted.Render("↑/↓ choose · enter approve and allow · esc cancel"))
	return frame(st.Dialog, st.Title.Render(d.title), d.w, d.h, lines)
}
