package ui

import (
	"fmt"
	"time"

	"github.com/assent-sh/assent/exec"
	"github.com/assent-sh/assent/human"
	"github.com/assent-sh/assent/queue"
)

// originReplay is the Origin of a call that `assent replay` submitted
// again from the journal; the console marks such calls "replay".
const originReplay = "replay"

// clean is text from an agent, a client or a child made safe to draw.
// Text that may hold a secret is masked first (maskSecrets).
func clean(s string) string { return exec.Escape(s) }

// quote is one argv element as the console shows it: quoted, with
// invisible characters as escapes.
func quote(s string) string { return exec.Quote(s) }

// state is how a call's place in its life is drawn.
type state struct {
	icon  string
	label string
	style Style
}

// stateOf describes the call for the list and the detail title.
func stateOf(st *Styles, c *queue.Call, now time.Time) state {
	switch c.Status {
	case queue.Received:
		return state{iconChecking, "checking", st.Muted}
	case queue.Pending:
		return state{iconPending, "pending", st.Pending}
	case queue.Approved:
		return state{iconRunning, "starting", st.Running}
	case queue.Running:
		return state{iconRunning, "running " + human.Duration(now.Sub(c.Started)), st.Running}
	case queue.Denied, queue.Refused:
		return state{iconDenied, deciderLabel(c), st.Denied}
	case queue.Cancelled:
		return state{iconCancelled, "withdrawn", st.Muted}
	case queue.Done:
		return doneState(st, c)
	}
	return state{iconChecking, string(c.Status), st.Muted}
}

// doneState describes a call that ran (or was approved and ended before it
// started), by the queue's account of how it ended.
func doneState(st *Styles, c *queue.Call) state {
	r := c.Result
	took := human.Duration(c.Ended.Sub(c.Started))
	switch c.Ending {
	case queue.Exited:
		if r != nil && r.ExitCode != 0 {
			return state{iconFailed, fmt.Sprintf("%d %s", r.ExitCode, took), st.Failed}
		}
		return state{iconOK, "0 " + took, st.OK}
	case queue.KilledByOperator:
		return state{iconFailed, "killed", st.Failed}
	case queue.TimedOut:
		return state{iconFailed, "timeout " + took, st.Failed}
	case queue.KilledAtCap:
		return state{iconFailed, "output cap", st.Failed}
	case queue.NotStarted:
		return state{iconFailed, "not started", st.Failed}
	case queue.CancelledByClient:
		return state{iconFailed, "cancelled", st.Failed}
	case queue.ShutDown:
		return state{iconFailed, "shut down", st.Failed}
	}
	return state{iconOK, "done", st.OK}
}

// deciderLabel says in one word who settled the call.
func deciderLabel(c *queue.Call) string {
	switch c.Decider {
	case "":
		return ""
	case queue.ByRule:
		if c.Status == queue.Denied {
			return "rule"
		}
		return "auto"
	case queue.ByValidation:
		return "invalid"
	}
	return string(c.Decider)
}

// decision says in a phrase how the call was decided, for the detail.
func decision(c *queue.Call) string {
	d := c.Decision
	rule := ""
	if d.Rule != "" {
		rule = " " + clean(d.Rule)
	}
	switch {
	case c.Status == queue.Pending || c.Status == queue.Received:
		if d.Rule == "" {
			return "asks: " + clean(d.Reason)
		}
		return "asks: rule" + rule + reasonSuffix(d.Reason)
	case c.Decider == queue.ByRule && (c.Status == queue.Denied):
		return "denied by rule" + rule + ": " + clean(d.Reason)
	case c.Decider == queue.ByRule:
		return "approved by rule" + rule
	case c.Decider == queue.ByOperator && c.Status == queue.Denied:
		return "denied by the operator" + reasonSuffix(c.Reason)
	case c.Decider == queue.ByOperator:
		if c.Original != nil {
			return "approved by the operator, edited"
		}
		return "approved by the operator"
	case c.Status == queue.Refused || c.Status == queue.Denied || c.Status == queue.Cancelled:
		// The reason may quote the agent's arguments: masked as the journal masks it.
		return string(c.Status) + " (" + deciderLabel(c) + ")" + reasonSuffix(maskSecrets(c, part{kind: partText}, c.Reason))
	}
	return string(c.Status)
}

func reasonSuffix(r string) string {
	if r == "" {
		return ""
	}
	return ": " + clean(r)
}
