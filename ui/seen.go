package ui

import (
	"fmt"
	"strings"

	"github.com/assent-sh/assent/human"
)

// seen is what of a call's detail has been on screen: the drawn lines at
// the width they were drawn at, and every unit (an argv element, an env
// entry, a line of stdin) all of whose lines were on screen at some
// width. A resize draws the lines anew, and what was seen whole stays
// seen.
type seen struct {
	width int
	lines []bool
	done  [numSections][]bool
}

// mark records that lines [top, bottom) of d are on screen.
func (s *seen) mark(d *detail, top, bottom int) {
	if s.width != d.width || len(s.lines) != len(d.lines) {
		s.width, s.lines = d.width, make([]bool, len(d.lines))
	}
	for sec := range numSections {
		if len(s.done[sec]) < d.units[sec] {
			s.done[sec] = append(s.done[sec], make([]bool, d.units[sec]-len(s.done[sec]))...)
		}
	}
	bottom = min(bottom, len(d.lines))
	for i := top; i < bottom; i++ {
		s.lines[i] = true
	}
	for i := top; i < bottom; {
		l := d.lines[i]
		i = l.last + 1
		if l.unit < 0 || !l.sec.tracked() {
			continue
		}
		whole := true
		for j := l.first; j <= l.last && whole; j++ {
			whole = s.lines[j]
		}
		if whole {
			s.done[l.sec][l.unit] = true
		}
	}
}

// unseenNote says which parts of what runs were never all on screen, for
// the line that reports an approval ("not all seen: 36 of 42 lines of
// stdin"); "" when everything was.
func (s *seen) unseenNote(d *detail) string {
	var parts []string
	for _, t := range []struct {
		sec        section
		name, unit string
		plural     string
	}{
		{secArgv, "argv", "element", "elements"},
		{secEnv, "env", "entry", "entries"},
		{secStdin, "stdin", "line", "lines"},
	} {
		n := d.units[t.sec]
		missed := 0
		for u := range n {
			if u >= len(s.done[t.sec]) || !s.done[t.sec][u] {
				missed++
			}
		}
		if missed > 0 {
			parts = append(parts, fmt.Sprintf("%d of %s of %s", missed, human.Count(n, t.unit, t.plural), t.name))
		}
	}
	if len(parts) == 0 {
		return ""
	}
	return "not all seen: " + strings.Join(parts, ", ")
}

// markSeen records what of the selected call's detail is on screen now.
// It runs after every update: the screen drawn next is the one it marks.
// Nothing is seen under a dialog or on a screen too small to draw.
func (m *Model) markSeen() {
	e := m.selectedEntry()
	if e == nil || m.dialog != nil || m.fatal != nil || m.tooSmall() {
		return
	}
	d, top, rows := m.detailWindow(e)
	e.seen.mark(d, top, top+rows)
}

// unseenNote says what of call e's detail was never on screen.
func (m *Model) unseenNote(e *entry) string {
	if e == nil {
		return ""
	}
	return e.seen.unseenNote(m.detailOf(e))
}
