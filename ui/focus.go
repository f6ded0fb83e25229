package ui

// paneID names a pane of the main screen. One has the focus: the paging
// keys (pgup, pgdn, g, G) act on it, and its frame is drawn heavy.
type paneID uint8

const (
	paneDetail paneID = iota // the default: what runs is what matters
	paneOutput
	paneList
)

// focused is the pane with the focus. The output pane keeps it only
// while the selected call has one; otherwise the detail has it.
func (m *Model) focused() paneID {
	if m.focus == paneOutput && !hasOutputPane(m.selectedEntry()) {
		return paneDetail
	}
	return m.focus
}

// cycleFocus moves the focus to the next pane on screen: detail, output,
// list, and round again.
func (m *Model) cycleFocus() {
	switch m.focused() {
	case paneDetail:
		m.focus = paneOutput
		if !hasOutputPane(m.selectedEntry()) {
			m.focus = paneList
		}
	case paneOutput:
		m.focus = paneList
	default:
		m.focus = paneDetail
	}
}

// paneBorder is the style of a pane's frame.
func (m *Model) paneBorder(p paneID) Style {
	if m.focused() == p {
		return m.st.Focus
	}
	return m.st.Border
}

// scroll is a move of the paging keys.
type scroll uint8

const (
	pageUp scroll = iota
	pageDown
	toTop
	toBottom
)

// scrollFocused moves the focused pane: the list by a page of calls or to
// its first or last call, the detail and the output by a page or to
// their top or bottom.
func (m *Model) scrollFocused(s scroll) {
	switch m.focused() {
	case paneList:
		i, rows := m.calls.index(m.selected), max(1, m.bodyHeight()-3)
		switch s {
		case pageUp:
			m.selectAt(i - rows)
		case pageDown:
			m.selectAt(i + rows)
		case toTop:
			m.selectAt(0)
		case toBottom:
			m.selectAt(len(m.calls.shown) - 1)
		}
	case paneDetail:
		e := m.selectedEntry()
		if e == nil {
			return
		}
		_, top, rows := m.detailWindow(e)
		page := max(1, rows-1) // one line stays, to read on from
		switch s {
		case pageUp:
			m.detailTop = max(0, top-page)
		case pageDown:
			m.detailTop = min(top+page, m.maxDetailTop())
		case toTop:
			m.detailTop = 0
		case toBottom:
			m.detailTop = m.maxDetailTop()
		}
	case paneOutput:
		switch s {
		case pageUp:
			m.scrollOutput(-m.outputPage())
		case pageDown:
			m.scrollOutput(m.outputPage())
		case toTop:
			m.outputToTop()
		case toBottom:
			m.follow = true
		}
	}
}
