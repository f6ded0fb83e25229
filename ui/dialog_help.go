package ui

import (
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/assent-sh/assent/queue"
)

// helpDialog lists every key until esc (or ? or q) closes it.
type helpDialog struct {
	keys0   keyMap
	journal string
	close   key.Binding
	w, h    int
}

func newHelpDialog(k keyMap, journal string) *helpDialog {
	return &helpDialog{keys0: k, journal: journal,
		close: key.NewBinding(key.WithKeys("esc", "?", "q"), key.WithHelp("esc", "close"))}
}

func (d *helpDialog) init() tea.Cmd       { return nil }
func (d *helpDialog) about() queue.ID     { return 0 }
func (d *helpDialog) keys() []key.Binding { return []key.Binding{d.close} }
func (d *helpDialog) setSize(w, h int)    { d.w, d.h = dialogWidth(w), h }

func (d *helpDialog) update(msg tea.Msg) (dialog, action, tea.Cmd) {
	if k, ok := msg.(tea.KeyPressMsg); ok && key.Matches(k, d.close) {
		return nil, nil, nil
	}
	return d, nil, nil
}

// view lists the keys in two columns when they fit side by side, one
// otherwise, each as its key and what it does.
func (d *helpDialog) view(st *Styles) []string {
	w := textWidth(d.w)
	var entries []string
	keyW := 0
	for _, group := range d.keys0.FullHelp() {
		for _, b := range group {
			keyW = max(keyW, ansi.StringWidth(b.Help().Key))
		}
	}
	for _, group := range d.keys0.FullHelp() {
		for _, b := range group {
			if b.Enabled() {
				entries = append(entries, st.Title.Render(fit(b.Help().Key, keyW))+"  "+st.Muted.Render(b.Help().Desc))
			}
		}
	}
	var lines []string
	colW := (w - 2) / 2
	if colW >= keyW+22 {
		half := (len(entries) + 1) / 2
		for i := range half {
			l := fit(entries[i], colW)
			if i+half < len(entries) {
				l += "  " + entries[i+half]
			}
			lines = append(lines, l)
		}
	} else {
		lines = entries
	}
	lines = append(lines, "")
	lines = append(lines, wordWrap(st.Muted.Render("tab moves the focus between the panes; pgup, pgdn, g and G move the focused one. "+
		"Keys are ignored for a moment after a call or a dialog appears by itself. Esc closes a dialog and never approves."), w, "")...)
	if d.journal != "" {
		lines = append(lines, "")
		lines = append(lines, wrap(st.Muted.Render("journal ")+clean(d.journal), w, "")...)
	}
	return frame(st.Dialog, st.Title.Render("help"), d.w, d.h, lines)
}
