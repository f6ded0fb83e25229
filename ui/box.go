package ui

import (
	"strings"

	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"
)

// fit pads or cuts a line, styled or not, to exactly w cells.
func fit(s string, w int) string {
	if w <= 0 {
		return ""
	}
	n := ansi.StringWidth(s)
	if n > w {
		s = ansi.Truncate(s, w, "…")
		n = ansi.StringWidth(s)
	}
	return s + strings.Repeat(" ", w-n)
}

// box frames lines in a w×h box with the title in its top edge and pad
// blank cells before each line. Lines beyond the box are cut; missing ones
// are blank.
func box(border lipgloss.Style, title string, w, h, pad int, lines []string) []string {
	if w < 4 || h < 2 {
		return nil
	}
	inner := w - 2
	top := border.Render("┌")
	if title != "" {
		top += " " + fit(title, min(ansi.StringWidth(title), inner-2)) + " "
	}
	fill := max(0, w-1-ansi.StringWidth(top))
	out := make([]string, 0, h)
	out = append(out, top+border.Render(strings.Repeat("─", fill)+"┐"))
	side := border.Render("│")
	for i := 0; i < h-2; i++ {
		l := ""
		if i < len(lines) {
			l = lines[i]
		}
		out = append(out, side+strings.Repeat(" ", pad)+fit(l, inner-pad)+side)
	}
	out = append(out, border.Render("└"+strings.Repeat("─", inner)+"┘"))
	return out
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
	if ansi.StringWidth(s) <= w {
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
