package ui

import (
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
