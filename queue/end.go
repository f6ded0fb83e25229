package queue

import (
	"context"
	"errors"
	"time"

	"github.com/assent-sh/assent/exec"
	"github.com/assent-sh/assent/human"
	"github.com/assent-sh/assent/journal"
)

// The causes a running call's context is cancelled with by the queue
// itself; a cancellation without one of them came from the client.
var (
	errKilled   = errors.New("killed by the operator")
	errShutdown = errors.New("assent shut down")
)

// deny records and publishes a denial.
func (q *Queue) deny(e *entry, by Decider, reason string, rec journal.Record) (Outcome, error) {
	rec.Event, rec.Decision, rec.Decider, rec.Reason, rec.Ending = journal.Decided, journal.Deny, by, reason, EndDenied
	c := q.get(e)
	if err := q.record(&c, rec); err != nil {
		return q.refuse(e, ByJournal, err)
	}
	q.end(e, EventDecided, func(c *Call) { c.Status, c.Decider, c.Reason, c.Ending = Denied, by, reason, EndDenied })
	return Outcome{Call: q.get(e)}, nil
}

// refuseRecorded journals a refusal as a denial by what refused it, then
// ends the call with the error, so the journal never shows a call that
// was turned away as one still waiting.
func (q *Queue) refuseRecorded(e *entry, by Decider, cause error) (Outcome, error) {
	c := q.get(e)
	if err := q.record(&c, withCommand(journal.Record{Event: journal.Decided, Decision: journal.Deny,
		Decider: by, Reason: cause.Error(), Ending: EndRefused}, c)); err != nil {
		return q.refuse(e, ByJournal, err)
	}
	return q.refuse(e, by, cause)
}

// refuse ends a call that was never decided, with the error the front end
// returns to the client.
func (q *Queue) refuse(e *entry, by Decider, err error) (Outcome, error) {
	q.end(e, EventDecided, func(c *Call) { c.Status, c.Decider, c.Reason, c.Ending = Refused, by, err.Error(), EndRefused })
	return Outcome{Call: q.get(e)}, err
}

// runCancelled ends an approved call that never got to start: the client
// went away, the operator killed it or assent shut down while it waited
// for a running slot.
func (q *Queue) runCancelled(e *entry, cause error) (Outcome, error) {
	ending := cancelEnding(cause)
	reason := "cancelled before it started: " + cause.Error()
	if ending == CancelledByClient {
		reason = "cancelled before it started: the client withdrew the call"
	}
	c := q.get(e)
	_ = q.record(&c, journal.Record{Event: journal.Finished, Reason: reason, Error: reason, Ending: ending})
	q.end(e, EventFinished, func(c *Call) {
		c.Status, c.Reason, c.Ending = Done, reason, ending
		c.Result = &exec.Result{Cancelled: true, ExitCode: -1, StartError: reason}
	})
	return Outcome{Call: q.get(e)}, nil
}

// cancelEnding says whose cancellation ended a call, from the cause its
// context was cancelled with.
func cancelEnding(cause error) Ending {
	switch {
	case errors.Is(cause, errKilled):
		return KilledByOperator
	case errors.Is(cause, errShutdown):
		return ShutDown
	}
	return CancelledByClient
}

// ranEnding is how a call whose program was to run ended. The runner
// reports the first limit that ended the run (its timeout, the output cap,
// or a cancelled context, which can also stop a start); a cancellation's
// cause says who cancelled.
func ranEnding(r exec.Result, runCtx context.Context) Ending {
	switch {
	case r.Cancelled:
		// Also when the context ended before the program could start:
		// who cancelled says how the call ended, not the start it missed.
		return cancelEnding(context.Cause(runCtx))
	case r.StartError != "":
		return NotStarted
	case r.TimedOut:
		return TimedOut
	case r.OverflowKilled:
		return KilledAtCap
	}
	return Exited
}

// Outcome text: how a call ended in words an agent and an operator read,
// one account for the MCP result, the console, the server's log and the
// journal.

// EndingText says how the call ended when it did not simply run to its
// exit: "killed by the operator", "timed out after 30s", "killed because
// its output passed the tool's cap of 1 MiB (on_overflow: kill)",
// "cancelled while running: the client withdrew the call" or "…: assent
// shut down", "could not start …: …", or for a denial or refusal its
// reason. It is "" for a call that exited (with any code) or has not ended.
func (c Call) EndingText() string {
	r := c.Result
	switch c.Ending {
	case "", Exited:
		return ""
	case EndDenied, EndRefused, Withdrawn:
		return c.Reason
	case NotStarted:
		if r == nil {
			return c.Reason
		}
		return "could not start " + c.Command.Path + ": " + r.StartError
	}
	if c.Started.IsZero() || r == nil {
		return c.Reason // approved, and ended before it started
	}
	return EndingReason(c.Ending, c.Command, *r)
}

// EndingReason words how a started run ended: see EndingText.
func EndingReason(ending Ending, cmd exec.Command, r exec.Result) string {
	switch ending {
	case KilledByOperator:
		return "killed by the operator"
	case TimedOut:
		limit := cmd.Timeout
		if limit <= 0 {
			limit = r.Duration.Round(time.Millisecond)
		}
		return "timed out after " + human.Duration(limit)
	case KilledAtCap:
		kept := int64(len(r.Stdout.Data))
		if !r.Stdout.Truncated {
			kept = int64(len(r.Stderr.Data))
		}
		return "killed because its output passed the tool's cap of " + human.Size(kept) + " (on_overflow: kill)"
	case CancelledByClient:
		return "cancelled while running: the client withdrew the call"
	case ShutDown:
		return "cancelled while running: assent shut down"
	case NotStarted:
		return "could not start " + cmd.Path + ": " + r.StartError
	}
	return ""
}
