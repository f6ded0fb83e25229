package ui

import (
	"fmt"

	tea "charm.land/bubbletea/v2"

	"github.com/assent-sh/assent/queue"
)

// open shows a dialog the operator asked for.
func (m *Model) open(d dialog) tea.Cmd {
	d.setSize(m.width, m.bodyHeight())
	m.dialog = d
	return d.init()
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
	return m.open(newAlwaysDialog(m.st, &e.call, msg.rule, m.o.RememberedFile))
}

// handleRemembered reports an approval that remembered a rule. When the
// queue refused the rule, nothing was approved and the call still waits:
// the dialog it came from opens again and shows the queue's reason there,
// where the operator can widen the rule again.
func (m *Model) handleRemembered(msg rememberedMsg) tea.Cmd {
	if msg.err == nil {
		return m.setStatus(statusMsg{text: msg.a.describe()})
	}
	if d := msg.reopen; d != nil && m.dialog == nil {
		if e := m.calls.byID[d.about()]; e != nil && e.call.Status == queue.Pending {
			d.refused(msg.err)
			m.open(d)
			return nil
		}
	}
	return m.setStatus(statusMsg{err: msg.err})
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
