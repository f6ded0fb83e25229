package ui

import (
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
)

// Styles are every style the console draws with, built in one place.
// Components receive them and never pick colours of their own.
type Styles struct {
	Header    lipgloss.Style // the header line
	Brand     lipgloss.Style // "assent"
	Muted     lipgloss.Style // secondary text
	Border    lipgloss.Style // box lines
	Title     lipgloss.Style // box titles
	Selected  lipgloss.Style // the selected row of the list
	Pending   lipgloss.Style // calls waiting for the operator
	Running   lipgloss.Style // running calls
	OK        lipgloss.Style // calls that ran and exited 0
	Failed    lipgloss.Style // non-zero exits, kills, timeouts
	Denied    lipgloss.Style // denied, refused and cancelled calls
	Warning   lipgloss.Style // shell tools, invisible characters, config errors
	Stderr    lipgloss.Style // the mark of a stderr line
	Error     lipgloss.Style // error messages in the status line
	Info      lipgloss.Style // other status messages
	Added     lipgloss.Style // diff: added
	Removed   lipgloss.Style // diff: removed
	Dialog    lipgloss.Style // dialog box lines
	Help      help.Styles
	TextInput textinput.Styles
	TextArea  textarea.Styles
}

// NewStyles returns the console's styles. With noColor every style is
// plain: no colours and no attributes, so what is drawn is only text.
func NewStyles(noColor bool) Styles {
	if noColor {
		plain := lipgloss.NewStyle()
		ti := textinput.DefaultStyles(true)
		ti.Focused = textinput.StyleState{Text: plain, Placeholder: plain, Prompt: plain, Suggestion: plain}
		ti.Blurred = ti.Focused
		ti.Cursor.Blink = false
		ta := textarea.DefaultStyles(true)
		ta.Focused = textarea.StyleState{Base: plain, Text: plain, LineNumber: plain, CursorLine: plain,
			CursorLineNumber: plain, EndOfBuffer: plain, Placeholder: plain, Prompt: plain}
		ta.Blurred = ta.Focused
		ta.Cursor.Blink = false
		return Styles{Header: plain, Brand: plain, Muted: plain, Border: plain, Title: plain, Selected: plain,
			Pending: plain, Running: plain, OK: plain, Failed: plain, Denied: plain, Warning: plain,
			Stderr: plain, Error: plain, Info: plain, Added: plain, Removed: plain, Dialog: plain,
			Help: help.Styles{Ellipsis: plain, ShortKey: plain, ShortDesc: plain, ShortSeparator: plain,
				FullKey: plain, FullDesc: plain, FullSeparator: plain},
			TextInput: ti, TextArea: ta}
	}
	// ANSI colours 0-15 follow the terminal's own palette, so the console
	// reads on light and dark themes alike.
	c := func(n string) lipgloss.Style { return lipgloss.NewStyle().Foreground(lipgloss.Color(n)) }
	ti := textinput.DefaultStyles(true)
	ti.Cursor.Blink = false
	ta := textarea.DefaultStyles(true)
	ta.Cursor.Blink = false
	return Styles{
		Header:   lipgloss.NewStyle().Bold(true),
		Brand:    c("5").Bold(true),
		Muted:    c("8"),
		Border:   c("8"),
		Title:    lipgloss.NewStyle().Bold(true),
		Selected: lipgloss.NewStyle().Reverse(true),
		Pending:  c("3").Bold(true),
		Running:  c("4"),
		OK:       c("2"),
		Failed:   c("1"),
		Denied:   c("1"),
		Warning:  c("3"),
		Stderr:   c("1"),
		Error:    c("1").Bold(true),
		Info:     c("6"),
		Added:    c("2"),
		Removed:  c("1"),
		Dialog:   c("5"),
		Help: help.Styles{Ellipsis: c("8"), ShortKey: lipgloss.NewStyle().Bold(true), ShortDesc: c("8"),
			ShortSeparator: c("8"), FullKey: lipgloss.NewStyle().Bold(true), FullDesc: c("8"), FullSeparator: c("8")},
		TextInput: ti,
		TextArea:  ta,
	}
}
