package ui

import (
	"strings"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"
)

// promptEnd says how a key ended typing in the status line: not yet, by
// enter (keep what was typed) or by esc (drop it).
type promptEnd uint8

const (
	promptTyping promptEnd = iota
	promptKept
	promptDropped
)

// promptKey gives a key to an input in the status line. Enter and esc end
// the typing; esc also empties the input.
func promptKey(in *textinput.Model, msg tea.KeyPressMsg) (promptEnd, tea.Cmd) {
	fk := defaultFormKeys()
	switch {
	case key.Matches(msg, fk.Confirm):
		in.Blur()
		return promptKept, nil
	case key.Matches(msg, fk.Cancel):
		in.Blur()
		in.SetValue("")
		return promptDropped, nil
	}
	var cmd tea.Cmd
	*in, cmd = in.Update(msg)
	return promptTyping, cmd
}

// handleFilterKey edits the filter; the list follows every keystroke.
// Enter keeps the filter, esc clears it.
func (m *Model) handleFilterKey(msg tea.KeyPressMsg) tea.Cmd {
	end, cmd := promptKey(&m.filterInput, msg)
	m.filtering = end == promptTyping
	m.applyFilter()
	return cmd
}

// applyFilter shows the calls matching the filter and keeps a selection
// among them.
func (m *Model) applyFilter() {
	m.calls.setFilter(m.filterInput.Value())
	if m.calls.index(m.selected) < 0 && len(m.calls.shown) > 0 {
		m.selectCall(m.calls.shown[0].call.ID)
	}
	m.scrollList()
}

// setFilter shows only calls whose row holds f, ignoring case: the tool,
// the client, the state, who decided ("edited" for an edit), "replay".
func (cs *calls) setFilter(f string) {
	cs.filter = strings.ToLower(f)
	cs.applyFilter()
}

func (cs *calls) applyFilter() {
	if cs.filter == "" {
		cs.shown = cs.order
		return
	}
	cs.shown = make([]*entry, 0, len(cs.order))
	var st Styles // only the words matter here
	for _, e := range cs.order {
		c := &e.call
		words := []string{c.Tool, c.Client, string(c.Status), listState(&st, c, c.Started).label,
			deciderLabel(c), listDecider(c)}
		if c.Origin == originReplay {
			words = append(words, originReplay)
		}
		for _, s := range words {
			if strings.Contains(strings.ToLower(s), cs.filter) {
				cs.shown = append(cs.shown, e)
				break
			}
		}
	}
}
