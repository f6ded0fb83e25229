package ui

import (
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
)

// handleFilterKey edits the filter; the list follows every keystroke.
// Enter keeps the filter, esc clears it.
func (m *Model) handleFilterKey(msg tea.KeyPressMsg) tea.Cmd {
	fk := defaultFormKeys()
	switch {
	case key.Matches(msg, fk.Confirm):
		m.filtering = false
		m.filterInput.Blur()
		return nil
	case key.Matches(msg, fk.Cancel):
		m.filtering = false
		m.filterInput.Blur()
		m.filterInput.SetValue("")
		m.applyFilter()
		return nil
	}
	var cmd tea.Cmd
	m.filterInput, cmd = m.filterInput.Update(msg)
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

// setFilter shows only calls whose tool, client, state or decider contain
// f, ignoring case.
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
	for _, e := range cs.order {
		c := &e.call
		for _, s := range []string{c.Tool, c.Client, string(c.Status), deciderLabel(c)} {
			if strings.Contains(strings.ToLower(s), cs.filter) {
				cs.shown = append(cs.shown, e)
				break
			}
		}
	}
}
