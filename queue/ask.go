package queue

import (
	"context"
	"fmt"
	"time"

	"github.com/assent-sh/assent/exec"
	"github.com/assent-sh/assent/journal"
)

// ask publishes the call for an operator and waits for the first of a
// decision, the approval timeout, or the client going away.
func (q *Queue) ask(ctx context.Context, e *entry) (Outcome, error) {
	c := q.get(e)
	q.mu.Lock()
	if q.pending >= q.opts.MaxPending {
		q.mu.Unlock()
		return q.refuseRecorded(e, ByLimit, &LimitError{"waiting for approval", q.opts.MaxPending})
	}
	q.pending++
	q.mu.Unlock()
	if err := q.record(&c, withCommand(journal.Record{Event: journal.Decided, Decision: journal.Ask,
		Decider: ByRule, Rule: c.Decision.Rule, Reason: c.Decision.Reason}, c)); err != nil {
		q.mu.Lock()
		q.pending--
		q.mu.Unlock()
		return q.refuse(e, ByJournal, err)
	}
	// Waiting for a person makes the call slow, however quick its run;
	// the caller hears of it before anyone sees the call pending.
	exec.SlowOf(ctx).Give()
	q.set(e, EventPending, func(c *Call) {
		c.Status = Pending
		// Close settles the calls that are pending when it runs; one
		// that becomes pending after it is settled here, under the same
		// lock, so none is left waiting for an operator who has gone.
		if q.closed {
			q.claimLocked(e, resolution{decider: ByShutdown, reason: q.closeReason})
		}
	})

	var timeout <-chan time.Time
	if d := q.opts.ApprovalTimeout; d > 0 {
		t := time.NewTimer(d)
		defer t.Stop()
		timeout = t.C
	}
	var res resolution
	select {
	case res = <-e.decision:
	case <-timeout:
		res = q.claim(e, resolution{decider: ByTimeout,
			reason: fmt.Sprintf("no operator decision within %v", q.opts.ApprovalTimeout)})
	case <-ctx.Done():
		res = q.claim(e, resolution{decider: ByClient, reason: "the client cancelled the call"})
	}
	q.mu.Lock()
	q.pending--
	q.mu.Unlock()
	return q.settle(ctx, e, res)
}

// claim settles a pending call with r unless someone else settled it
// first, and returns whichever resolution won.
func (q *Queue) claim(e *entry, r resolution) resolution {
	q.mu.Lock()
	if e.claim == nil {
		q.claimLocked(e, r)
	}
	q.mu.Unlock()
	return <-e.decision
}

// claimLocked settles a pending call; the caller holds q.mu and has
// checked it is not yet settled. The channel has room for exactly this one
// resolution, so the first claim wins and nothing blocks.
func (q *Queue) claimLocked(e *entry, r resolution) {
	e.claim = &r
	e.decision <- r
}

// settle acts on the resolution of a pending call.
func (q *Queue) settle(ctx context.Context, e *entry, res resolution) (Outcome, error) {
	c := q.get(e)
	switch {
	case !res.approve && res.decider == ByClient:
		if err := q.record(&c, journal.Record{Event: journal.Decided, Decision: journal.Deny,
			Decider: ByClient, Reason: res.reason, Ending: Withdrawn}); err != nil {
			return q.refuse(e, ByJournal, err)
		}
		q.end(e, EventDecided, func(c *Call) {
			c.Status, c.Decider, c.Reason, c.Ending = Cancelled, ByClient, res.reason, Withdrawn
		})
		return Outcome{Call: q.get(e)}, nil
	case !res.approve:
		return q.deny(e, res.decider, res.reason, journal.Record{})
	}
	if res.edited != nil {
		if err := q.record(&c, journal.Record{Event: journal.Edited,
			Edit: &journal.Edit{Before: c.journalCommand().Argv, After: res.edited.Argv}}); err != nil {
			return q.refuse(e, ByJournal, err)
		}
		orig := c.Command
		c.Original, c.Command, c.Hash = &orig, *res.edited, res.edited.Hash()
		c.journaledCmd = nil // a call with secrets cannot be edited
	}
	reason := "approved by the operator"
	if res.remember != nil {
		reason = fmt.Sprintf("approved by the operator, remembered (%s)", memoryName(res.remember.always))
	}
	if err := q.record(&c, withCommand(journal.Record{Event: journal.Decided, Decision: journal.Allow,
		Decider: ByOperator, Reason: reason}, c)); err != nil {
		return q.refuse(e, ByJournal, err)
	}
	q.set(e, EventDecided, func(e *Call) {
		e.Status, e.Decider = Approved, ByOperator
		e.Original, e.Command, e.Hash = c.Original, c.Command, c.Hash
	})
	if err := q.waitSlot(ctx, e); err != nil {
		return q.runCancelled(e, err)
	}
	return q.run(ctx, e, nil)
}

func memoryName(always bool) string {
	if always {
		return "always"
	}
	return "this session"
}
