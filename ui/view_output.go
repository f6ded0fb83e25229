package ui

import (
	"fmt"
	"slices"

	"github.com/charmbracelet/x/ansi"

	"github.com/assent-sh/assent/human"
)

// outputView draws the tail of the call's output, or the part the
// operator scrolled to, bottom up: only the lines on screen are wrapped.
func (m *Model) outputView(e *entry, w, h int) []string {
	p := pane{pad: 1, focused: m.focused() == paneOutput}
	inner, rows := p.textWidth(w), h-2
	b := &e.out
	end := b.end()
	var tails []outLine
	if m.follow {
		tails = b.tail()
	} else {
		end = min(m.outBottom, end)
	}
	var rev []string
	add := func(l outLine, found bool) bool {
		wrapped := m.outLineView(l, inner)
		for i := len(wrapped) - 1; i >= 0 && len(rev) < rows; i-- {
			if found {
				wrapped[i] = m.st.Selected.Render(ansi.Strip(wrapped[i]))
			}
			rev = append(rev, wrapped[i])
		}
		return len(rev) < rows
	}
	more := true
	for i := len(tails) - 1; i >= 0 && more; i-- {
		more = add(tails[i], false)
	}
	for i := end - 1; i >= b.first && more; i-- {
		more = add(b.line(i), i == m.search.line)
	}
	slices.Reverse(rev)
	if len(rev) == 0 {
		note := "no output"
		if e.running() {
			note = "waiting for output"
		}
		rev = append(rev, m.st.Muted.Render(note))
	}
	p.title = m.st.Title.Render("output")
	if n := b.end() - b.first; n > 0 {
		p.title += m.st.Muted.Render(" · " + human.Count(int(n), "line"))
	}
	if b.first > 0 {
		p.title += m.st.Muted.Render(" (" + human.Count(int(b.first), "older line") + " dropped)")
	}
	if !m.follow {
		p.title += m.st.Warning.Render(" · scrolled, f follows")
	}
	if q := m.search.query; q != "" {
		found := "not found"
		if m.search.line >= 0 {
			found = fmt.Sprintf("line %d", m.search.line+1)
		}
		p.footer = m.st.Muted.Render("/" + clean(q) + " · " + found + " · n/N")
	}
	return p.draw(m.paneBorder(paneOutput), w, h, rev)
}

// outLineView draws one line of output with its gutter: stderr is marked.
func (m *Model) outLineView(l outLine, w int) []string {
	gutter := "  "
	text := l.text
	switch l.kind {
	case lineStderr:
		gutter = m.st.Stderr.Render(iconStderr) + " "
	case lineNote:
		text = m.st.Muted.Render(text)
	}
	wrapped := wrap(text, w-2, "")
	for i := range wrapped {
		wrapped[i] = gutter + wrapped[i]
	}
	return wrapped
}
