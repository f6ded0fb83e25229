package ui

import (
	tea "charm.land/bubbletea/v2"
)

// Screen rows outside the body: header, status line, help bar.
const chromeRows = 3

// handleResize lays the screen out for a new terminal size.
func (m *Model) handleResize(msg tea.WindowSizeMsg) tea.Cmd {
	m.width, m.height = msg.Width, msg.Height
	m.layout()
	if m.dialog != nil {
		m.dialog.setSize(m.width, m.bodyHeight())
	}
	m.scrollList()
	return nil
}

// layout sizes the parts that keep their own width.
func (m *Model) layout() {
	m.help.SetWidth(m.width - 1)
	m.filterInput.SetWidth(max(10, m.width-4))
}

// bodyHeight is the rows between the header and the status line.
func (m *Model) bodyHeight() int { return max(4, m.height-chromeRows) }

// listWidth is the width of the queue list, borders included: narrow on
// a small screen, where the call's detail matters most.
func (m *Model) listWidth() int {
	return max(30, min(30+(m.width-80)/2, 60))
}

// rightWidth is the width of the detail and output panes.
func (m *Model) rightWidth() int { return max(20, m.width-m.listWidth()) }

// scrollList keeps the selected row inside the list's window.
func (m *Model) scrollList() {
	rows := m.bodyHeight() - 2
	i := m.calls.index(m.selected)
	if i >= 0 {
		if i < m.listTop {
			m.listTop = i
		}
		if i >= m.listTop+rows {
			m.listTop = i - rows + 1
		}
	}
	m.listTop = max(0, min(m.listTop, len(m.calls.shown)-rows))
}
