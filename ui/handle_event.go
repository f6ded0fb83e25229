package ui

import (
	tea "charm.land/bubbletea/v2"

	"github.com/assent-sh/assent/queue"
)

// handleSnapshot loads the queue's state when the console starts.
func (m *Model) handleSnapshot(msg snapshotMsg) tea.Cmd {
	m.journalErr = msg.journal
	m.calls.load(msg.snap.Calls)
	for id, chunks := range msg.snap.Output {
		for _, ch := range chunks {
			m.calls.output(id, &ch, 0)
		}
	}
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

	var cmds []tea.Cmd
	if ev.Kind == queue.EventPending {
		cmds = append(cmds, m.announce(&e.call))
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

// handleChange shows a change of the config files. It opens by itself
// only when no other dialog is open, and then with the grace period;
// otherwise it waits behind the C key.
func (m *Model) handleChange(msg changeMsg) tea.Cmd {
	c := msg.change
	if c.Err == nil && c.Apply == nil {
		return nil
	}
	// A newer change supersedes a waiting one; a change whose files do not
	// load leaves nothing to apply, and neither does one that differs in
	// nothing (a bad edit reverted): it only closes what was shown.
	m.change = nil
	if c.Err == nil && len(c.Summary) == 0 {
		if _, ok := m.dialog.(*changeDialog); ok {
			m.dialog = nil
		}
		return m.setStatus(statusMsg{text: "the config files are as the tools and rules in force: nothing to apply"})
	}
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
