package ui

import (
	"fmt"
	"slices"
)

// outputView draws the tail of the call's output, or the part the
// operator scrolled to, bottom up: only the lines on screen are wrapped.
func (m *Model) outputView(e *entry, w, h int) []string {
	inner, rows := w-3, h-2
	b := e.out
	end := b.end()
	var tails []outLine
	if m.follow {
		tails = b.tail()
	} else {
		end = min(m.outBottom, end)
	}
	var rev []string
	add := func(l outLine) bool {
		wrapped := m.outLineView(l, inner)
		for i := len(wrapped) - 1; i >= 0 && len(rev) < rows; i-- {
			rev = append(rev, wrapped[i])
		}
		return len(rev) < rows
	}
	more := true
	for i := len(tails) - 1; i >= 0 && more; i-- {
		more = add(tails[i])
	}
	for i := end - 1; i >= b.first && more; i-- {
		more = add(b.line(i))
	}
	slices.Reverse(rev)
	if len(rev) == 0 {
		note := "no output"
		if e.running() {
			note = "waiting for output"
		}
		rev = append(rev, m.st.Muted.Render(note))
	}
	title := m.st.Title.Render("output")
	if n := b.end() - b.first; n > 0 {
		title += m.st.Muted.Render(fmt.Sprintf(" · %d lines", n))
	}
	if b.first > 0 {
		title += m.st.Muted.Render(fmt.Sprintf(" (%d older dropped)", b.first))
	}
	if !m.follow {
		title += m.st.Warning.Render(" · scrolled, f follows")
	}
	return box(m.st.Border, title, w, h, 1, rev)
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
