package ui

import (
	"context"
	"fmt"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/assent-sh/assent/policy"
	"github.com/assent-sh/assent/queue"
)

// closeTimeout bounds how long quitting waits for killed calls to end.
const closeTimeout = 15 * time.Second

// closeReason is what pending calls are denied with when the console quits.
const closeReason = "console closed"

// An action is what a key or a dialog asks the queue to do. Dialogs and
// key handlers return actions; only the root model turns them into
// commands that call the queue.
type action interface{ describe() string }

type approveAction struct {
	id   queue.ID
	note string // what of the call was never on screen, if anything
}
type denyAction struct {
	id     queue.ID
	reason string
}
type editAction struct {
	id    queue.ID
	argv  []string
	stdin string
}

// rememberAction approves a call and remembers a rule. When the queue
// refuses the rule (it does not cover the call, or it holds a secret), the
// call still waits and from, the dialog it came from, opens again with the
// queue's word for what is wrong.
type rememberAction struct {
	id     queue.ID
	rule   policy.Rule
	always bool
	note   string
	from   refusable
}

// sessionAction approves a call and remembers its narrowest rule for this
// session: for the call's client, or for every client when allClients.
type sessionAction struct {
	id         queue.ID
	allClients bool
	client     string
	note       string
	from       refusable
}
type narrowAction struct{ id queue.ID }
type killAction struct{ id queue.ID }
type quitAction struct{}
type applyAction struct{ change Change }

// copyAction puts text on the terminal's clipboard (OSC 52).
type copyAction struct{ what, text string }

func (a approveAction) describe() string { return withNote("approved "+a.id.String(), a.note) }
func (a denyAction) describe() string    { return "denied " + a.id.String() }
func (a editAction) describe() string    { return "approved " + a.id.String() + " as edited" }
func (a rememberAction) describe() string {
	return withNote("approved "+a.id.String()+" and saved the rule", a.note)
}
func (a sessionAction) describe() string {
	who := "from " + clientName(a.client)
	if a.allClients {
		who = "from every client"
	}
	return withNote("approved "+a.id.String()+" and its like "+who+" for this session", a.note)
}
func (a narrowAction) describe() string { return "" }
func (a killAction) describe() string   { return "killing " + a.id.String() }
func (a quitAction) describe() string   { return "" }
func (a applyAction) describe() string  { return "applied the config change" }
func (a copyAction) describe() string {
	return "copied " + a.what + " to the clipboard (OSC 52: the terminal must allow it)"
}

// withNote adds what an approval did not show to its report.
func withNote(s, note string) string {
	if note == "" {
		return s
	}
	return s + " · " + note
}

// clientName names a client in the operator's words.
func clientName(name string) string {
	if name == "" {
		return "the unnamed client"
	}
	return clean(name)
}

// perform returns the command that carries out a. Commands run outside
// Update; each reports back through a message.
func (m *Model) perform(a action) tea.Cmd {
	q := m.q
	// An approval reports what of the call was never on screen; the
	// model knows, so it is added here, before the command leaves Update.
	switch t := a.(type) {
	case approveAction:
		t.note = m.unseenNote(m.calls.byID[t.id])
		a = t
	case rememberAction:
		t.note = m.unseenNote(m.calls.byID[t.id])
		a = t
	case sessionAction:
		t.note = m.unseenNote(m.calls.byID[t.id])
		a = t
	}
	report := func(err error) tea.Msg {
		if err != nil {
			return statusMsg{err: err}
		}
		return statusMsg{text: a.describe()}
	}
	switch a := a.(type) {
	case nil:
		return nil
	case approveAction:
		return func() tea.Msg { return report(q.Approve(a.id)) }
	case denyAction:
		return func() tea.Msg { return report(q.Deny(a.id, a.reason)) }
	case editAction:
		return func() tea.Msg { return report(q.ApproveEdited(a.id, a.argv, a.stdin)) }
	case rememberAction:
		return func() tea.Msg { return remembered(q, a, a.id, q.ApproveRemember(a.id, a.rule, a.always), a.from) }
	case sessionAction:
		return func() tea.Msg {
			rule, err := q.Narrowest(a.id)
			if err == nil {
				if !a.allClients {
					rule = rule.ForClient(a.client)
				}
				err = q.ApproveRemember(a.id, rule, false)
			}
			return remembered(q, a, a.id, err, a.from)
		}
	case copyAction:
		return tea.Batch(tea.SetClipboard(a.text), func() tea.Msg { return report(nil) })
	case narrowAction:
		return func() tea.Msg {
			rule, err := q.Narrowest(a.id)
			return narrowestMsg{a.id, rule, err}
		}
	case killAction:
		return func() tea.Msg { return report(q.Kill(a.id)) }
	case applyAction:
		m.change = nil
		apply := a.change.Apply
		return func() tea.Msg {
			if apply == nil {
				return statusMsg{err: fmt.Errorf("the config change cannot be applied")}
			}
			return report(apply())
		}
	case quitAction:
		m.quitting = true
		return func() tea.Msg {
			ctx, cancel := context.WithTimeout(context.Background(), closeTimeout)
			defer cancel()
			return closedMsg{q.Close(ctx, closeReason)}
		}
	}
	panic(fmt.Sprintf("ui: unknown action %T", a))
}

// remembered reports how remembering a rule went. When it failed and the
// call still waits, nothing was approved: the dialog opens again.
func remembered(q *queue.Queue, a action, id queue.ID, err error, from refusable) tea.Msg {
	msg := rememberedMsg{a: a, err: err}
	if err != nil && from != nil {
		if c, cerr := q.Call(id); cerr == nil && c.Status == queue.Pending {
			msg.reopen = from
		}
	}
	return msg
}
