package ui

import (
	"strings"

	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/textarea"
	"charm.land/bubbles/v2/textinput"
	"charm.land/lipgloss/v2"
)

// Icons of the console. Each is one narrow cell wide in common terminal
// fonts, and each appears beside a word, so nothing depends on the glyph.
const (
	iconSelected  = "▶"
	iconPending   = "●"
	iconChecking  = "…"
	iconRunning   = "»"
	iconOK        = "✓"
	iconFailed    = "!"
	iconDenied    = "✗"
	iconCancelled = "-"
	iconWarning   = "⚠"
	iconStderr    = "┃"
	iconMoreAbove = "▲"
	iconMoreBelow = "▼"
	iconReplay    = "↻"
)

// Styles are every style the console draws with, built in one place.
// Components receive them and never pick colours of their own.
type Styles struct {
	Header    Style // the header line
	Brand     Style // "assent"
	Muted     Style // secondary text
	Border    Style // box lines
	Focus     Style // the lines of the focused pane
	Title     Style // box titles
	Selected  Style // the selected row of the list, the output line found
	Pending   Style // calls waiting for the operator
	Running   Style // running calls
	OK        Style // calls that ran and exited 0
	Failed    Style // non-zero exits, kills, timeouts
	Denied    Style // denied, refused and cancelled calls
	Warning   Style // shell tools, invisible characters, config errors
	Stderr    Style // the mark of a stderr line
	Error     Style // error messages in the status line
	Info      Style // other status messages
	Added     Style // diff: added
	Removed   Style // diff: removed
	Dialog    Style // dialog box lines
	Help      help.Styles
	TextInput textinput.Styles
	TextArea  textarea.Styles
}

// Style is one look of the console's text: the escape sequences a
// lipgloss style writes around a line, taken once when the styles are
// built. Drawing with it is two string joins, where lipgloss would parse
// the style again for every piece of every frame.
type Style struct{ open, close string }

// newStyle takes the sequences s writes around a line.
func newStyle(s lipgloss.Style) Style {
	open, close, _ := strings.Cut(s.Render("\x00"), "\x00")
	return Style{open, close}
}

// Render draws text in the style, each line on its own as lipgloss does.
func (s Style) Render(text string) string {
	if s.open == "" && s.close == "" {
		return text
	}
	if strings.IndexByte(text, '\n') >= 0 {
		lines := strings.Split(text, "\n")
		for i, l := range lines {
			lines[i] = s.open + l + s.close
		}
		return strings.Join(lines, "\n")
	}
	return s.open + text + s.close
}

// NewStyles returns the console's styles. With noColor every style is
// plain: no colours and no attributes, so what is drawn is only text.
func NewStyles(noColor bool) Styles {
	if noColor {
		plain := lipgloss.NewStyle()
		none := Style{}
		ti := textinput.DefaultStyles(true)
		ti.Focused = textinput.StyleState{Text: plain, Placeholder: plain, Prompt: plain, Suggestion: plain}
		ti.Blurred = ti.Focused
		ti.Cursor.Blink = false
		ta := textarea.DefaultStyles(true)
		ta.Focused = textarea.StyleState{Base: plain, Text: plain, LineNumber: plain, CursorLine: plain,
			CursorLineNumber: plain, EndOfBuffer: plain, Placeholder: plain, Prompt: plain}
		ta.Blurred = ta.Focused
		ta.Cursor.Blink = false
		return Styles{Header: none, Brand: none, Muted: none, Border: none, Focus: none, Title: none, Selected: none,
			Pending: none, Running: none, OK: none, Failed: none, Denied: none, Warning: none,
			Stderr: none, Error: none, Info: none, Added: none, Removed: none, Dialog: none,
			Help: help.Styles{Ellipsis: plain, ShortKey: plain, ShortDesc: plain, ShortSeparator: plain,
				FullKey: plain, FullDesc: plain, FullSeparator: plain},
			TextInput: ti, TextArea: ta}
	}
	// ANSI colours 0-15 follow the terminal's own palette, so the console
	// reads on light and dark themes alike.
	fg := func(n string) lipgloss.Style { return lipgloss.NewStyle().Foreground(lipgloss.Color(n)) }
	c := func(n string) Style { return newStyle(fg(n)) }
	bold := newStyle(lipgloss.NewStyle().Bold(true))
	ti := textinput.DefaultStyles(true)
	ti.Cursor.Blink = false
	ta := textarea.DefaultStyles(true)
	ta.Cursor.Blink = false
	return Styles{
		Header:   bold,
		Brand:    newStyle(fg("5").Bold(true)),
		Muted:    c("8"),
		Border:   c("8"),
		Focus:    c("6"),
		Title:    bold,
		Selected: newStyle(lipgloss.NewStyle().Reverse(true)),
		Pending:  newStyle(fg("3").Bold(true)),
		Running:  c("4"),
		OK:       c("2"),
		Failed:   c("1"),
		Denied:   c("1"),
		Warning:  c("3"),
		Stderr:   c("1"),
		Error:    newStyle(fg("1").Bold(true)),
		Info:     c("6"),
		Added:    c("2"),
		Removed:  c("1"),
		Dialog:   c("5"),
		Help: help.Styles{Ellipsis: fg("8"), ShortKey: lipgloss.NewStyle().Bold(true), ShortDesc: fg("8"),
			ShortSeparator: fg("8"), FullKey: lipgloss.NewStyle().Bold(true), FullDesc: fg("8"), FullSeparator: fg("8")},
		TextInput: ti,
		TextArea:  ta,
	}
}
