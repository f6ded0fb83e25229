package ui

import (
	"fmt"
	"strings"

	tea "charm.land/bubbletea/v2"

	"github.com/assent-sh/assent/human"
)

// outputSearch is a search within the selected call's output: the text
// sought and the line found (-1 for none).
type outputSearch struct {
	query string
	line  int64
}

// outputRows is how many lines the output pane shows.
func (m *Model) outputRows() int {
	_, outH := m.split(m.selectedEntry())
	return max(1, outH-2)
}

// outputPage is how far one page of output scrolls.
func (m *Model) outputPage() int64 { return int64(max(1, m.outputRows()-1)) }

// scrollOutput moves the output pane by delta lines; reaching the end
// follows the tail again.
func (m *Model) scrollOutput(delta int64) {
	e := m.selectedEntry()
	if e == nil {
		return
	}
	if m.follow {
		m.outBottom = e.out.end()
	}
	m.outBottom += delta
	m.follow = m.outBottom >= e.out.end()
	m.outBottom = max(m.outBottom, min(e.out.first+1, e.out.end()))
}

// outputToTop shows the oldest line kept, and as many after it as fit.
func (m *Model) outputToTop() {
	e := m.selectedEntry()
	if e == nil {
		return
	}
	b, rows, inner := &e.out, m.outputRows(), pane{pad: 1}.textWidth(m.rightWidth())
	used, i := 0, b.first
	for ; i < b.end(); i++ {
		if used += len(m.outLineView(b.line(i), inner)); used > rows {
			break
		}
	}
	m.outBottom = max(i, min(b.first+1, b.end()))
	m.follow = m.outBottom >= b.end() && len(b.tail()) == 0
}

// showOutputLine scrolls the output so that line i is on screen, near
// the middle.
func (m *Model) showOutputLine(i int64) {
	e := m.selectedEntry()
	if e == nil {
		return
	}
	m.outBottom = min(e.out.end(), i+int64(m.outputRows()/2)+1)
	m.follow = false
}

// handleSearchKey edits the search; enter finds the first line holding
// it from the top of the pane down, esc ends the search.
func (m *Model) handleSearchKey(msg tea.KeyPressMsg) tea.Cmd {
	end, cmd := promptKey(&m.searchInput, msg)
	if end == promptTyping {
		return cmd
	}
	m.searching = false
	m.search = outputSearch{query: m.searchInput.Value(), line: -1}
	if m.search.query == "" {
		return nil
	}
	return m.findOutput(1, true)
}

// findOutput moves to the next (dir 1) or previous (dir -1) line of the
// selected call's output that holds the search text, ignoring case, and
// wraps around the ends. first starts from the top of the pane.
func (m *Model) findOutput(dir int64, first bool) tea.Cmd {
	e := m.selectedEntry()
	if e == nil || m.search.query == "" {
		return nil
	}
	b := &e.out
	n := b.end() - b.first
	if n == 0 {
		return m.setStatus(statusMsg{text: "no output to search"})
	}
	from := m.search.line
	if first || from < b.first {
		bottom := b.end()
		if !m.follow {
			bottom = min(m.outBottom, b.end())
		}
		from = max(b.first, bottom-int64(m.outputRows())) - dir
	}
	q := strings.ToLower(m.search.query)
	for step := int64(1); step <= n; step++ {
		i := b.first + ((from-b.first+dir*step)%n+n)%n
		if strings.Contains(strings.ToLower(b.line(i).text), q) {
			m.search.line = i
			m.showOutputLine(i)
			if wrapped := (dir > 0 && i <= from) || (dir < 0 && i >= from); wrapped && !first {
				return m.setStatus(statusMsg{text: "search wrapped around the output"})
			}
			return nil
		}
	}
	m.search.line = -1
	return m.setStatus(statusMsg{text: fmt.Sprintf("%q is not in the %s kept", m.search.query, human.Count(int(n), "line"))})
}
