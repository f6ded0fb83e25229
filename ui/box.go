package ui

import (
	"strings"

	"github.com/charmbracelet/x/ansi"
)

// width is how many cells s takes, styled or not. Text that is ASCII
// apart from styling, most of what the console draws, is measured by
// counting; anything else by its grapheme clusters.
func width(s string) int {
	n := 0
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c >= 0x80:
			return ansi.StringWidth(s)
		case c == 0x1b && i+1 < len(s) && s[i+1] == '[':
			// A CSI sequence (the styling): parameters, then a final byte.
			for i += 2; i < len(s) && (s[i] < 0x40 || s[i] > 0x7e); i++ {
			}
		case c < 0x20 || c == 0x7f:
			return ansi.StringWidth(s)
		default:
			n++
		}
	}
	return n
}

// fit pads or cuts a line, styled or not, to exactly w cells.
func fit(s string, w int) string {
	if w <= 0 {
		return ""
	}
	n := width(s)
	if n > w {
		s = ansi.Truncate(s, w, "…")
		n = ansi.StringWidth(s)
	}
	return s + strings.Repeat(" ", w-n)
}

// pane is how a framed box is drawn: its title in the top edge, a note in
// the bottom edge, heavy lines when it has the focus, and pad blank cells
// on both sides of its text, so no text touches a border.
type pane struct {
	title   string
	footer  string
	focused bool
	pad     int
}

// textWidth is the room for text in a pane w cells wide.
func (p pane) textWidth(w int) int { return w - 2 - 2*p.pad }

// draw frames lines in a w×h box. Lines beyond the box are cut; missing
// ones are blank.
func (p pane) draw(border Style, w, h int, lines []string) []string {
	if w < 4 || h < 2 {
		return nil
	}
	tl, tr, bl, br, hz, vt := "┌", "┐", "└", "┘", "─", "│"
	if p.focused {
		tl, tr, bl, br, hz, vt = "┏", "┓", "┗", "┛", "━", "┃"
	}
	inner := w - 2
	edge := func(left, right, label string) string {
		s := border.Render(left)
		if label != "" {
			s += " " + fit(label, min(width(label), inner-2)) + " "
		}
		return s + border.Render(strings.Repeat(hz, max(0, w-1-width(s)))+right)
	}
	out := make([]string, 0, h)
	out = append(out, edge(tl, tr, p.title))
	side, gap := border.Render(vt), strings.Repeat(" ", p.pad)
	text := p.textWidth(w)
	for i := 0; i < h-2; i++ {
		l := ""
		if i < len(lines) {
			l = lines[i]
		}
		out = append(out, side+gap+fit(l, text)+gap+side)
	}
	return append(out, edge(bl, br, p.footer))
}

// box frames lines in a w×h box with the title in its top edge.
func box(border Style, title string, w, h, pad int, lines []string) []string {
	return pane{title: title, pad: pad}.draw(border, w, h, lines)
}

// wordWrap breaks prose into lines of at most w cells at spaces where it
// can, within words where it must; every line after the first starts
// with indent.
func wordWrap(s string, w int, indent string) []string {
	iw := ansi.StringWidth(indent)
	if iw >= w {
		indent, iw = "", 0
	}
	lines := strings.Split(ansi.Wrap(s, w-iw, ""), "\n")
	for i := 1; i < len(lines); i++ {
		lines[i] = indent + lines[i]
	}
	return lines
}

// wrap breaks text into lines of at most w cells, keeping every character
// (spaces included) so that wrapped argv reads exactly; every line after
// the first starts with indent.
func wrap(s string, w int, indent string) []string {
	if w <= 0 {
		return []string{s}
	}
	if width(s) <= w {
		return []string{s}
	}
	first := strings.Split(ansi.Hardwrap(s, w, true), "\n")
	rest := strings.Join(first[1:], "")
	out := []string{first[0]}
	iw := ansi.StringWidth(indent)
	if iw >= w {
		indent, iw = "", 0
	}
	for _, l := range strings.Split(ansi.Hardwrap(rest, w-iw, true), "\n") {
		out = append(out, indent+l)
	}
	return out
}

// overlay draws the dialog lines over the body, centred.
func overlay(body []string, dlg []string, width int) []string {
	if len(dlg) == 0 {
		return body
	}
	dw := 0
	for _, l := range dlg {
		dw = max(dw, ansi.StringWidth(l))
	}
	x := max(0, (width-dw)/2)
	y := max(0, (len(body)-len(dlg))/2)
	out := append([]string(nil), body...)
	for i, l := range dlg {
		if y+i >= len(out) {
			break
		}
		row := out[y+i]
		left := ansi.Truncate(row, x, "")
		left += strings.Repeat(" ", x-ansi.StringWidth(left))
		right := ansi.TruncateLeft(row, x+dw, "")
		out[y+i] = left + fit(l, dw) + right
	}
	return out
}
