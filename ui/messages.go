package ui

import (
	"github.com/assent-sh/assent/policy"
	"github.com/assent-sh/assent/queue"
)

// Messages the console receives. The feeder sends the first three; tea
// commands return the rest.

// snapshotMsg starts the console from the queue's state. journal is the
// journal's error, nil while it works.
type snapshotMsg struct {
	snap    queue.Snapshot
	journal error
}

// eventMsg is one change in the queue, in order.
type eventMsg struct {
	ev      queue.Event
	journal error
}

// changeMsg is a change to the watched config files.
type changeMsg struct{ change Change }

// statusMsg is the one way a result or an error reaches the operator: a
// line in the status bar, shown for a few seconds. err set means the line
// reports a failure.
type statusMsg struct {
	text string
	err  error
}

// statusExpiredMsg clears the status line unless a newer message took it.
type statusExpiredMsg struct{ seq int }

// refreshMsg redraws running calls' elapsed time.
type refreshMsg struct{}

// narrowestMsg carries the rule "always allow" would save for a call.
type narrowestMsg struct {
	id   queue.ID
	rule policy.Rule
	err  error
}

// rememberedMsg reports an approval that remembers a rule. reopen is the
// dialog to show again, with err, when the queue refused the rule and the
// call still waits.
type rememberedMsg struct {
	a      action
	err    error
	reopen refusable
}

// closedMsg says the queue has closed and the console may exit.
type closedMsg struct{ err error }

// fatalMsg stops the console: it can no longer show the queue.
type fatalMsg struct{ err error }
