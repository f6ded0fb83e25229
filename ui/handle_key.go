package ui

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/assent-sh/assent/queue"
)

// handleKey routes a key press: swallowed in the grace period, then to
// the open dialog, the input being typed, or the main screen.
func (m *Model) handleKey(msg tea.KeyPressMsg) tea.Cmd {
	if m.quitting && key.Matches(msg, m.keys.Interrupt) {
		// Closing waits for killed calls to end; a second ctrl+c leaves
		// the rest of it to the caller of Run.
		return tea.Quit
	}
	if m.inGrace() || m.quitting {
		return nil
	}
	if m.fatal != nil {
		if key.Matches(msg, m.keys.Quit, m.keys.Interrupt) {
			return tea.Quit
		}
		return nil
	}
	if key.Matches(msg, m.keys.Interrupt) {
		return m.requestQuit()
	}
	msg.Text = printableOnly(msg.Text)
	switch {
	case m.dialog != nil:
		d, a, cmd := m.dialog.update(msg)
		m.dialog = d
		return tea.Batch(cmd, m.perform(a))
	case m.filtering:
		return m.handleFilterKey(msg)
	case m.searching:
		return m.handleSearchKey(msg)
	}
	sel := m.selectedEntry()
	k := m.screenKeys()
	switch {
	case sel != nil && sel.call.Status == queue.Pending && sel.call.Shell &&
		key.Matches(msg, m.keys.Always, m.keys.Session):
		return m.setStatus(statusMsg{text: "no rule is offered for " + clean(sel.call.Tool) +
			": it is a shell tool, which can run any program, so no remembered rule ever approves it; a approves this call once"})
	case key.Matches(msg, k.Approve):
		return m.perform(approveAction{id: sel.call.ID})
	case key.Matches(msg, k.Deny):
		return m.open(newDenyDialog(m.st, &sel.call))
	case key.Matches(msg, k.Edit):
		if len(sel.call.Secrets) > 0 {
			return m.setStatus(statusMsg{text: "a call with secret values cannot be edited: its text is masked"})
		}
		return m.open(newEditDialog(m.st, &sel.call))
	case key.Matches(msg, k.Always):
		return m.perform(narrowAction{sel.call.ID})
	case key.Matches(msg, k.Session):
		return m.open(newSessionDialog(&sel.call))
	case key.Matches(msg, k.Kill):
		return m.perform(killAction{sel.call.ID})
	case key.Matches(msg, k.Config):
		return m.open(newChangeDialog(*m.change))
	case key.Matches(msg, k.Quit):
		return m.requestQuit()
	}
	return m.handleNavKey(msg, k)
}

// screenKeys is the main screen's keymap as it applies now.
func (m *Model) screenKeys() keyMap {
	return m.keys.forScreen(m.selectedEntry(), m.change != nil, m.focused(), m.search.query != "")
}

// handleNavKey moves around the main screen and opens the dialogs that
// act on nothing.
func (m *Model) handleNavKey(msg tea.KeyPressMsg, k keyMap) tea.Cmd {
	i := m.calls.index(m.selected)
	switch {
	case key.Matches(msg, k.Up):
		m.selectAt(i - 1)
	case key.Matches(msg, k.Down):
		m.selectAt(i + 1)
	case key.Matches(msg, k.Focus):
		m.cycleFocus()
	case key.Matches(msg, k.PageUp):
		m.scrollFocused(pageUp)
	case key.Matches(msg, k.PageDown):
		m.scrollFocused(pageDown)
	case key.Matches(msg, k.Top):
		m.scrollFocused(toTop)
	case key.Matches(msg, k.Bottom):
		m.scrollFocused(toBottom)
	case key.Matches(msg, k.MoreUp):
		m.detailTop = max(0, min(m.detailTop, m.maxDetailTop())-1)
	case key.Matches(msg, k.MoreDown):
		m.detailTop = min(m.detailTop+1, m.maxDetailTop())
	case key.Matches(msg, k.OutEnd):
		m.follow = true
	case key.Matches(msg, k.Filter):
		m.filtering = true
		return m.filterInput.Focus()
	case key.Matches(msg, k.Search):
		m.searching = true
		m.searchInput.SetValue(m.search.query)
		m.searchInput.CursorEnd()
		return m.searchInput.Focus()
	case key.Matches(msg, k.Next):
		return m.findOutput(1, false)
	case key.Matches(msg, k.Prev):
		return m.findOutput(-1, false)
	case key.Matches(msg, k.Connect):
		return m.open(newConnectDialog(m.o.Endpoint, m.o.Token, m.o.TokenFile))
	case key.Matches(msg, k.Help):
		return m.open(newHelpDialog(m.keys, m.journal))
	}
	return nil
}

// selectAt selects the shown call at index i, clamped to the list.
func (m *Model) selectAt(i int) {
	if len(m.calls.shown) == 0 {
		return
	}
	i = max(0, min(i, len(m.calls.shown)-1))
	m.selectCall(m.calls.shown[i].call.ID)
}

// requestQuit quits at once when no call waits or runs, and asks first
// when some do: quitting denies the waiting ones and kills the others.
func (m *Model) requestQuit() tea.Cmd {
	pending, running, _ := m.calls.counts()
	if pending+running == 0 {
		return m.perform(quitAction{})
	}
	return m.open(newQuitDialog(pending, running))
}

// handlePaste gives pasted text to the input that has focus, if any.
func (m *Model) handlePaste(msg tea.PasteMsg) tea.Cmd {
	if m.inGrace() {
		return nil
	}
	var cmd tea.Cmd
	switch {
	case m.dialog != nil:
		// A dialog may take lines (the stdin of an edit); its one-line
		// inputs turn newlines into spaces themselves.
		msg.Content = strings.ReplaceAll(msg.Content, "\r\n", "\n")
		lines := strings.Split(msg.Content, "\n")
		for i, l := range lines {
			lines[i] = printableOnly(l)
		}
		msg.Content = strings.Join(lines, "\n")
		d, a, cmd := m.dialog.update(msg)
		m.dialog = d
		return tea.Batch(cmd, m.perform(a))
	case m.filtering:
		msg.Content = printableOnly(msg.Content)
		m.filterInput, cmd = m.filterInput.Update(msg)
		m.applyFilter()
	case m.searching:
		msg.Content = printableOnly(msg.Content)
		m.searchInput, cmd = m.searchInput.Update(msg)
	}
	return cmd
}

// printableOnly drops what the operator typed or pasted that could not be
// shown as itself: the inputs draw their text raw, and an invisible
// character in a reason or an edit would hide from the operator who
// approves it. Such characters are typed as escapes instead ($'\u202e').
func printableOnly(s string) string {
	return strings.Map(func(r rune) rune {
		if r == ' ' || (unicode.IsPrint(r) && r != utf8.RuneError) {
			return r
		}
		return -1
	}, s)
}
