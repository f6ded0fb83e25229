package ui

import (
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/assent-sh/assent/queue"
)

// changeDialog shows a change to the watched config files and applies it
// only when the operator confirms; a change whose files do not load is
// only shown.
type changeDialog struct {
	change Change
	w, h   int
	fk     formKeys
}

func newChangeDialog(c Change) *changeDialog {
	fk := defaultFormKeys()
	fk.Confirm.SetHelp("enter", "apply")
	fk.Cancel.SetHelp("esc", "not now")
	if c.Err != nil {
		fk.Confirm.SetEnabled(false)
		fk.Cancel.SetHelp("esc", "close")
	}
	return &changeDialog{change: c, fk: fk}
}

func (d *changeDialog) init() tea.Cmd       { return nil }
func (d *changeDialog) about() queue.ID     { return 0 }
func (d *changeDialog) keys() []key.Binding { return []key.Binding{d.fk.Confirm, d.fk.Cancel} }
func (d *changeDialog) setSize(w, h int)    { d.w, d.h = dialogWidth(w), h }

func (d *changeDialog) update(msg tea.Msg) (dialog, action, tea.Cmd) {
	switch {
	case isCancel(msg, d.fk):
		return nil, nil, nil
	case isConfirm(msg, d.fk) && d.change.Err == nil:
		return nil, applyAction{d.change}, nil
	}
	return d, nil, nil
}

func (d *changeDialog) view(st *Styles) []string {
	inner := textWidth(d.w)
	var lines []string
	if d.change.Err != nil {
		lines = append(lines, wordWrap(st.Error.Render("The changed config files do not load; the current tools and rules stay:"), inner, "")...)
		lines = append(lines, "")
		lines = append(lines, wordWrap(clean(d.change.Err.Error()), inner, "")...)
		lines = append(lines, "", st.Muted.Render("esc close"))
		return frame(st.Dialog, st.Title.Render("config change refused"), d.w, d.h, lines)
	}
	lines = append(lines, "The config files changed. Apply these differences?", "")
	for _, s := range d.change.Summary {
		style := st.Muted
		switch {
		case len(s) > 0 && s[0] == '+':
			style = st.Added
		case len(s) > 0 && s[0] == '-':
			style = st.Removed
		case len(s) > 0 && s[0] == '~':
			style = st.Warning
		}
		for _, l := range wrap(clean(s), inner, "    ") {
			lines = append(lines, style.Render(l))
		}
	}
	if len(d.change.Summary) == 0 {
		lines = append(lines, st.Muted.Render("(no differences in tools or rules)"))
	}
	lines = append(lines, "", st.Muted.Render("enter apply · esc not now (C reopens)"))
	return frame(st.Dialog, st.Title.Render("config change"), d.w, d.h, lines)
}
