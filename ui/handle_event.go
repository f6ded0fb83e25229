package ui

import (
	"fmt"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/assent-sh/assent/queue"
)

// handleSnapshot loads the queue's state when the console starts.
func (m *Model) handleSnapshot(msg snapshotMsg) tea.Cmd {
	m.journalErr = msg.journal
	for _, c := range msg.snap.Calls {
		m.calls.put(c)
		for _, ch := range msg.snap.Output[c.ID] {
			m.calls.output(c.ID, &ch, 0)
		}
	}
	m.calls.sort()
	m.ready = true
	if e := m.calls.firstPending(); e != nil {
		m.autoSelect(e)
	} else if len(m.calls.shown) > 0 {
		m.selectCall(m.calls.shown[0].call.ID)
	}
	return m.tick()
}

// handleQueueEvent applies one change of the queue.
func (m *Model) handleQueueEvent(msg eventMsg) tea.Cmd {
	m.journalErr = msg.journal
	ev := msg.ev
	if ev.Kind == queue.EventOutput {
		m.calls.output(ev.Call.ID, ev.Output, ev.Skipped)
		return nil
	}
	sel := m.selectedEntry()
	selWasPending := sel != nil && sel.call.Status == queue.Pending
	e, _ := m.calls.put(ev.Call)
	m.calls.output(e.call.ID, nil, ev.Skipped)
	m.calls.sort()

	var cmds []tea.Cmd
	if ev.Kind == queue.EventPending && !m.o.NoBell {
		cmds = append(cmds, tea.Raw(string(rune(ansi.BEL))))
	}
	cmds = append(cmds, m.closeSettledDialog(e))
	switch sel = m.selectedEntry(); {
	case sel == nil || (ev.Kind == queue.EventPending && sel.call.Status != queue.Pending):
		// Nothing was selected, or a call now waits while the operator
		// looks at one that does not: show the waiting call.
		if first := m.calls.firstPending(); first != nil {
			m.autoSelect(first)
		} else if len(m.calls.shown) > 0 {
			m.selectCall(m.calls.shown[0].call.ID)
		}
	case selWasPending && sel.call.Status != queue.Pending:
		// The call on screen was settled; move on to the next waiting one.
		if first := m.calls.firstPending(); first != nil {
			m.autoSelect(first)
		}
	}
	m.scrollList()
	cmds = append(cmds, m.tick())
	return tea.Batch(cmds...)
}

// closeSettledDialog closes a dialog about a call that is no longer
// pending: it was settled elsewhere (timeout, the client, shutdown, another
// console) while the operator was deciding, and acting on it now would
// only fail.
func (m *Model) closeSettledDialog(e *entry) tea.Cmd {
	if m.dialog == nil || m.dialog.about() != e.call.ID || e.call.Status == queue.Pending {
		return nil
	}
	m.dialog = nil
	return m.setStatus(statusMsg{err: fmt.Errorf("%s was settled while its dialog was open: %s",
		e.call.ID, decision(&e.call))})
}

// handleChange shows a change of the config files. It opens by itself
// only when no other dialog is open, and then with the grace period;
// otherwise it waits behind the C key.
func (m *Model) handleChange(msg changeMsg) tea.Cmd {
	c := msg.change
	if c.Err == nil && c.Apply == nil {
		return nil
	}
	// A newer change supersedes a waiting one; a change whose files do not
	// load leaves nothing to apply.
	m.change = nil
	if c.Err == nil {
		m.change = &c
	}
	if m.dialog != nil {
		if _, ok := m.dialog.(*changeDialog); !ok {
			return m.setStatus(statusMsg{text: "the config files changed: press C to review"})
		}
	}
	m.dialog = newChangeDialog(c)
	m.dialog.setSize(m.width, m.bodyHeight())
	m.startGrace()
	return nil
}
