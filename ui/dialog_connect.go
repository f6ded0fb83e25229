package ui

import (
	"encoding/json"
	"fmt"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/assent-sh/assent/queue"
)

// snippet is one way to point a client at the console: the text y copies
// and the pieces it is drawn from. A drawn line breaks only between
// pieces, never inside a URL, a token or a quoted string, and a line that
// breaks ends with cont so that what is copied from the screen still reads
// as the same text (" \" for a shell command; nothing for JSON, where a
// newline between values is only space).
type snippet struct {
	label string
	atoms []string
	cont  string
}

func (s snippet) text() string { return strings.Join(s.atoms, " ") }

// lines lays the snippet out in lines of at most w cells. A piece wider
// than w has a line of its own (and is cut there: y still copies it).
func (s snippet) lines(w int) (lines []string, cut bool) {
	cur := s.atoms[0]
	for _, a := range s.atoms[1:] {
		if ansi.StringWidth(cur+" "+a+s.cont) <= w {
			cur += " " + a
			continue
		}
		lines = append(lines, cur+s.cont)
		cur = "  " + a
	}
	lines = append(lines, cur)
	for _, l := range lines {
		cut = cut || ansi.StringWidth(l) > w
	}
	return lines, cut
}

// connectDialog shows how to point an MCP client at the console: the only
// place the whole token appears.
type connectDialog struct {
	snippets  []snippet
	cursor    int
	tokenFile string
	w, h      int
	fk        formKeys
	copy      key.Binding
	close     key.Binding
}

func newConnectDialog(endpoint, token, tokenFile string) *connectDialog {
	d := &connectDialog{tokenFile: tokenFile, fk: defaultFormKeys(),
		copy:  key.NewBinding(key.WithKeys("y"), key.WithHelp("y", "copy (OSC 52)")),
		close: key.NewBinding(key.WithKeys("esc", "c", "q"), key.WithHelp("esc", "close"))}
	if endpoint == "" {
		return d
	}
	url, bearer := clean(endpoint), "Bearer "+clean(token)
	js := func(s string) string { b, _ := json.Marshal(s); return string(b) }
	d.snippets = []snippet{
		{label: "URL", atoms: []string{url}},
		{label: "header", atoms: []string{"Authorization: " + bearer}},
		{label: "Claude Code", cont: " \\", atoms: []string{"claude", "mcp", "add", "-s", "user", "--transport", "http", "assent",
			quote(url), "--header", quote("Authorization: " + bearer)}},
		{label: "Cursor (~/.cursor/mcp.json) and other mcpServers configs", atoms: []string{`{"mcpServers":`,
			`{"assent":`, `{"url":`, js(url) + ",", `"headers":`, `{"Authorization":`, js(bearer) + "}}}}"}},
		{label: "VS Code (.vscode/mcp.json)", atoms: []string{`{"servers":`, `{"assent":`, `{"type":`, `"http",`,
			`"url":`, js(url) + ",", `"headers":`, `{"Authorization":`, js(bearer) + "}}}}"}},
	}
	return d
}

func (d *connectDialog) init() tea.Cmd   { return nil }
func (d *connectDialog) about() queue.ID { return 0 }
func (d *connectDialog) setSize(w, h int) {
	d.w, d.h = max(40, min(w-2, 120)), h
}

func (d *connectDialog) keys() []key.Binding {
	if len(d.snippets) == 0 {
		return []key.Binding{d.close}
	}
	return []key.Binding{d.copy, d.fk.Up, d.fk.Down, d.close}
}

func (d *connectDialog) update(msg tea.Msg) (dialog, action, tea.Cmd) {
	k, ok := msg.(tea.KeyPressMsg)
	switch {
	case !ok:
	case key.Matches(k, d.close):
		return nil, nil, nil
	case len(d.snippets) == 0:
	case key.Matches(k, d.copy):
		s := d.snippets[d.cursor]
		return d, copyAction{what: "the " + s.label + " snippet", text: s.text()}, nil
	case key.Matches(k, d.fk.Up):
		d.cursor = max(0, d.cursor-1)
	case key.Matches(k, d.fk.Down):
		d.cursor = min(len(d.snippets)-1, d.cursor+1)
	}
	return d, nil, nil
}

func (d *connectDialog) view(st *Styles) []string {
	w := textWidth(d.w)
	if len(d.snippets) == 0 {
		return frame(st.Dialog, st.Title.Render("connect a client"), d.w, d.h,
			[]string{"This console serves no HTTP endpoint."})
	}
	lines := wordWrap("MCP over Streamable HTTP; every request needs the header. ↑/↓ choose a snippet, y copies it (OSC 52).", w, "")
	if d.tokenFile != "" {
		lines = append(lines, wrap(st.Muted.Render("token file ")+clean(d.tokenFile), w, "  ")...)
		lines = append(lines, st.Muted.Render("(assent token --rotate replaces it; clients then need the new one)"))
	}
	anyCut := false
	start, end := 0, 0 // the chosen snippet's lines
	for i, s := range d.snippets {
		marker := "  "
		if i == d.cursor {
			marker = iconSelected + " "
			start = len(lines)
		}
		lines = append(lines, "", st.Muted.Render(marker+s.label+":"))
		// Snippets are drawn from the first cell, with no indent of the
		// dialog's own, so that what is copied from the screen is exact.
		sl, cut := s.lines(w)
		lines = append(lines, sl...)
		anyCut = anyCut || cut
		if i == d.cursor {
			end = len(lines)
		}
	}
	if anyCut {
		lines = append(lines, "")
		lines = append(lines, wordWrap(st.Warning.Render(iconWarning+" a line is too long for this terminal; y copies it whole"), w, "")...)
	}
	// On a short screen the chosen snippet stays in view.
	title, top := "connect a client", 0
	if rows := d.h - 3; len(lines) > rows+1 { // frame keeps a line for "…"
		top = max(0, min(end-rows, start))
	}
	if top > 0 {
		title += fmt.Sprintf(" · %s %d above", iconMoreAbove, top)
	}
	return frame(st.Dialog, st.Title.Render(title), d.w, d.h, lines[top:])
}
