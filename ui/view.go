package ui

import (
	"fmt"
	"strings"

	tea "charm.land/bubbletea/v2"
)

// Smallest terminal the layout is drawn in; below it the console asks for
// more room rather than draw something misleading.
const (
	minWidth  = 60
	minHeight = 12
)

// View implements tea.Model.
func (m Model) View() tea.View {
	v := tea.NewView(m.render())
	v.AltScreen = true
	v.WindowTitle = "assent"
	return v
}

// render draws the whole screen, exactly width×height cells.
func (m *Model) render() string {
	if m.fatal != nil {
		return m.fatalView()
	}
	if m.tooSmall() {
		return m.tooSmallView()
	}
	rows := make([]string, 0, m.height)
	rows = append(rows, m.headerView())
	body := m.bodyView()
	if m.dialog != nil {
		body = overlay(body, m.dialog.view(&m.st), m.width)
	}
	rows = append(rows, body...)
	rows = append(rows, m.statusView(), m.helpView())
	return strings.Join(rows, "\n")
}

// bodyView is the queue list beside the detail and output panes.
func (m *Model) bodyView() []string {
	h := m.bodyHeight()
	left := m.listView(m.listWidth(), h)
	right := m.rightView(m.rightWidth(), h)
	rows := make([]string, h)
	for i := range rows {
		var l, r string
		if i < len(left) {
			l = left[i]
		}
		if i < len(right) {
			r = right[i]
		}
		rows[i] = l + r
	}
	return rows
}

// tooSmall reports whether the terminal is below the smallest layout.
func (m *Model) tooSmall() bool { return m.width < minWidth || m.height < minHeight }

// tooSmallView asks for more room, wrapped at spaces so that every word
// of it is on screen however narrow the terminal is.
func (m *Model) tooSmallView() string {
	text := fmt.Sprintf("assent needs a terminal of at least %d×%d; this one is %d×%d", minWidth, minHeight, m.width, m.height)
	lines := wordWrap(text, max(1, m.width), "")
	lines = lines[:min(len(lines), max(1, m.height))]
	for i, l := range lines {
		lines[i] = fit(l, m.width)
	}
	return strings.Join(lines, "\n")
}

// fatalView replaces everything when the console cannot go on.
func (m *Model) fatalView() string {
	lines := []string{
		m.st.Error.Render("assent: the console stopped"),
		"",
	}
	lines = append(lines, wordWrap(clean(m.fatal.Error()), max(20, m.width-2), "")...)
	lines = append(lines, "", m.st.Muted.Render("press q to exit"))
	for i, l := range lines {
		lines[i] = fit(l, m.width)
	}
	return strings.Join(lines, "\n")
}

// statusView is the status line: the filter being typed, the last
// message, or nothing.
func (m *Model) statusView() string {
	switch {
	case m.filtering:
		return fit(m.filterInput.View(), m.width)
	case m.searching:
		return fit(m.searchInput.View(), m.width)
	case m.status.err != nil:
		return fit(m.st.Error.Render(iconDenied+" "+clean(m.status.err.Error())), m.width)
	case m.status.text != "":
		return fit(m.st.Info.Render(clean(m.status.text)), m.width)
	case m.quitting:
		return fit(m.st.Info.Render("closing: denying waiting calls and stopping running ones…"), m.width)
	case !m.ready:
		return fit(m.st.Muted.Render("reading the queue…"), m.width)
	}
	return strings.Repeat(" ", m.width)
}

// helpView is the help bar for the selected call or the open dialog.
func (m *Model) helpView() string {
	var s string
	if m.dialog != nil {
		s = m.help.ShortHelpView(m.dialog.keys())
	} else {
		s = m.help.View(m.screenKeys())
	}
	return fit(" "+s, m.width)
}
