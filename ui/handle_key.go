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
// the open dialog, the filter, or the main screen.
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
	if m.dialog != nil {
		d, a, cmd := m.dialog.update(msg)
		m.dialog = d
		return tea.Batch(cmd, m.perform(a))
	}
	if m.filtering {
		return m.handleFilterKey(msg)
	}
	sel := m.selectedEntry()
	k := m.keys.forCall(sel, m.change != nil)
	switch {
	case key.Matches(msg, k.Approve):
		return m.perform(approveAction{sel.call.ID})
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
		return m.perform(sessionAction{sel.call.ID})
	case key.Matches(msg, k.Kill):
		return m.perform(killAction{sel.call.ID})
	case key.Matches(msg, k.Config):
		return m.open(newChangeDialog(*m.change))
	case key.Matches(msg, k.Quit):
		return m.requestQuit()
	}
	return m.handleNavKey(msg, k)
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
	case key.Matches(msg, k.Top):
		m.selectAt(0)
	case key.Matches(msg, k.Bottom):
		m.selectAt(len(m.calls.shown) - 1)
	case key.Matches(msg, k.OutUp):
		m.scrollOutput(-m.outputPage())
	case key.Matches(msg, k.OutDown):
		m.scrollOutput(m.outputPage())
	case key.Matches(msg, k.OutEnd):
		m.follow = true
	case key.Matches(msg, k.MoreUp):
		m.detailTop = max(0, m.detailTop-1)
	case key.Matches(msg, k.MoreDown):
		m.detailTop = min(m.detailTop+1, m.maxDetailTop())
	case key.Matches(msg, k.Filter):
		m.filtering = true
		return m.filterInput.Focus()
	case key.Matches(msg, k.Connect):
		return m.open(newConnectDialog(m.o.Endpoint, m.o.Token))
	case key.Matches(msg, k.Help):
		return m.open(newHelpDialog(m.help, m.keys, m.journal))
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

// open shows a dialog the operator asked for.
func (m *Model) open(d dialog) tea.Cmd {
	d.setSize(m.width, m.bodyHeight())
	m.dialog = d
	return d.init()
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
	msg.Content = printableOnly(msg.Content)
	switch {
	case m.dialog != nil:
		d, a, cmd := m.dialog.update(msg)
		m.dialog = d
		return tea.Batch(cmd, m.perform(a))
	case m.filtering:
		var cmd tea.Cmd
		m.filterInput, cmd = m.filterInput.Update(msg)
		m.applyFilter()
		return cmd
	}
	return nil
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

// openAlways opens the "always allow" dialog once the queue has proposed
// the rule, if the call still waits.
func (m *Model) openAlways(msg narrowestMsg) tea.Cmd {
	if msg.err != nil {
		return m.setStatus(statusMsg{err: msg.err})
	}
	e := m.calls.byID[msg.id]
	if e == nil || e.call.Status != queue.Pending || m.dialog != nil {
		return nil
	}
	return m.open(newAlwaysDialog(m.st, &e.call, msg.rule))
}
