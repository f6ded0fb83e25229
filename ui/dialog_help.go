package ui

import (
	"fmt"
	"strings"

	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/assent-sh/assent/queue"
)

// infoDialog shows text until esc (or its own key) closes it.
type infoDialog struct {
	title string
	body  func(st *Styles, w int) []string
	close key.Binding
	w, h  int
}

func (d *infoDialog) init() tea.Cmd   { return nil }
func (d *infoDialog) about() queue.ID { return 0 }
func (d *infoDialog) keys() []key.Binding {
	return []key.Binding{d.close}
}
func (d *infoDialog) setSize(w, h int) { d.w, d.h = dialogWidth(w), h }

func (d *infoDialog) update(msg tea.Msg) (dialog, action, tea.Cmd) {
	if k, ok := msg.(tea.KeyPressMsg); ok && key.Matches(k, d.close) {
		return nil, nil, nil
	}
	return d, nil, nil
}

func (d *infoDialog) view(st *Styles) []string {
	return frame(st.Dialog, st.Title.Render(d.title), d.w, d.h, d.body(st, textWidth(d.w)))
}

// newHelpDialog lists every key.
func newHelpDialog(h help.Model, k keyMap, journal string) *infoDialog {
	return &infoDialog{
		title: "help",
		close: key.NewBinding(key.WithKeys("esc", "?", "q"), key.WithHelp("esc", "close")),
		body: func(st *Styles, w int) []string {
			h.SetWidth(w)
			lines := strings.Split(h.FullHelpView(k.FullHelp()), "\n")
			lines = append(lines, "")
			lines = append(lines, wordWrap(st.Muted.Render("Keys are ignored for a moment after a call or a dialog appears by itself. Esc closes a dialog and never approves."), w, "")...)
			if journal != "" {
				lines = append(lines, "")
				lines = append(lines, wrap(st.Muted.Render("journal ")+clean(journal, nil), w, "")...)
			}
			return lines
		},
	}
}

// newConnectDialog shows how to point an MCP client at the console:
// the only place the whole token appears.
func newConnectDialog(endpoint, token string) *infoDialog {
	return &infoDialog{
		title: "connect a client",
		close: key.NewBinding(key.WithKeys("esc", "c", "q"), key.WithHelp("esc", "close")),
		body: func(st *Styles, w int) []string {
			url, auth := clean(endpoint, nil), "Authorization: Bearer "+clean(token, nil)
			if endpoint == "" {
				return []string{"This console serves no HTTP endpoint."}
			}
			var lines []string
			// Snippets wrap without indent, so joining the lines gives
			// back the exact text.
			add := func(s string) { lines = append(lines, wrap(s, w, "")...) }
			lines = append(lines, wordWrap("MCP over Streamable HTTP; every request needs the header.", w, "")...)
			lines = append(lines, "")
			add(st.Muted.Render("URL     ") + url)
			add(st.Muted.Render("header  ") + auth)
			lines = append(lines, "", st.Muted.Render("Claude Code:"))
			add(fmt.Sprintf("claude mcp add --transport http assent %s --header %q", url, auth))
			lines = append(lines, "", st.Muted.Render("Cursor (~/.cursor/mcp.json) and other mcpServers configs:"))
			add(fmt.Sprintf(`{"mcpServers": {"assent": {"url": %q, "headers": {"Authorization": %q}}}}`,
				url, "Bearer "+clean(token, nil)))
			lines = append(lines, "", st.Muted.Render("VS Code (.vscode/mcp.json):"))
			add(fmt.Sprintf(`{"servers": {"assent": {"type": "http", "url": %q, "headers": {"Authorization": %q}}}}`,
				url, "Bearer "+clean(token, nil)))
			return lines
		},
	}
}
