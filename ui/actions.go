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

type approveAction struct{ id queue.ID }
type denyAction struct {
	id     queue.ID
	reason string
}
type editAction struct {
	id    queue.ID
	argv  []string
	stdin string
}
type rememberAction struct {
	id     queue.ID
	rule   policy.Rule
	always bool
}
type sessionAction struct{ id queue.ID }
type narrowAction struct{ id queue.ID }
type killAction struct{ id queue.ID }
type quitAction struct{}
type applyAction struct{ change Change }

func (a approveAction) describe() string  { return "approved " + a.id.String() }
func (a denyAction) describe() string     { return "denied " + a.id.String() }
func (a editAction) describe() string     { return "approved " + a.id.String() + " as edited" }
func (a rememberAction) describe() string { return "approved " + a.id.String() + " and saved the rule" }
func (a sessionAction) describe() string {
	return "approved " + a.id.String() + " and its like for this session"
}
func (a narrowAction) describe() string { return "" }
func (a killAction) describe() string   { return "killing " + a.id.String() }
func (a quitAction) describe() string   { return "" }
func (a applyAction) describe() string  { return "applied the config change" }

// perform returns the command that carries out a. Commands run outside
// Update; each reports back through a message.
func (m *Model) perform(a action) tea.Cmd {
	q := m.q
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
		return func() tea.Msg { return report(q.ApproveRemember(a.id, a.rule, a.always)) }
	case sessionAction:
		return func() tea.Msg {
			rule, err := q.Narrowest(a.id)
			if err == nil {
				err = q.ApproveRemember(a.id, rule, false)
			}
			return report(err)
		}
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
