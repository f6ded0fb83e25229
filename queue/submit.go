package queue

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/assent-sh/assent/config"
	"github.com/assent-sh/assent/exec"
	"github.com/assent-sh/assent/journal"
	"github.com/assent-sh/assent/policy"
)

// Submit takes a call through its whole life: expand, decide, wait for an
// operator when policy asks, run, and journal every step, each record
// written before the step it describes. It returns when the call has ended.
//
// The error is non-nil when the call was refused before any decision: its
// arguments broke a rule of the tool (*config.ArgError), a limit was
// reached (*LimitError, retryable), the journal failed (*JournalError) or
// the queue is closed (ErrClosed). A call that was decided (ran, or was
// denied, or withdrawn by its client) returns a nil error and the Outcome
// says how it ended.
func (q *Queue) Submit(ctx context.Context, req Request) (Outcome, error) {
	if req.Tool == nil {
		return Outcome{}, errors.New("queue: request has no tool")
	}
	id, err := q.admit()
	if err != nil {
		return Outcome{}, err
	}
	defer q.wg.Done()
	c := Call{ID: id, Tool: req.Tool.Name, ReadOnly: req.Tool.ReadOnly, Shell: req.Tool.Shell,
		Client: req.Client, Session: req.Session, Origin: req.Origin, Args: req.Args,
		Received: q.opts.Now(), Status: Received}
	exp, expandErr := req.Tool.Prepare(req.Args)
	if expandErr != nil {
		c.Secrets = secretArgs(req)
	} else {
		c.Values, c.Secrets, c.Command, c.Hash = exp.Values, exp.Secrets, exp.Command, exp.Command.Hash()
	}
	// From here on the entry is shared: its call is written under q.mu
	// only, by this goroutine, except where an operator action says so.
	e := q.insert(c, req.Watch)
	if err := q.record(&c, journal.Record{Event: journal.Received, Tool: c.Tool, Client: c.Client,
		Session: c.Session, Args: c.Args}); err != nil {
		return q.refuse(e, ByJournal, err)
	}
	if expandErr != nil {
		return q.refuseRecorded(e, ByValidation, expandErr)
	}
	d := q.Policy().Decide(c.input())
	decider := ByRule
	if q.opts.Headless && d.Action == policy.Ask {
		d, decider = d.Headless(), ByHeadless
	}
	q.update(e, func(c *Call) { c.Decision = d })
	switch d.Action {
	case policy.Deny:
		return q.deny(e, decider, d.Reason, journal.Record{Decision: journal.Deny, Rule: d.Rule})
	case policy.Allow:
		if !q.trySlot() {
			return q.refuseRecorded(e, ByLimit, &LimitError{"running", q.opts.MaxRunning})
		}
		if err := q.record(&c, withCommand(journal.Record{Event: journal.Decided, Decision: journal.Allow,
			Decider: journal.ByRule, Rule: d.Rule, Reason: d.Reason}, c.Command)); err != nil {
			q.releaseSlot()
			return q.refuse(e, ByJournal, err)
		}
		q.set(e, EventDecided, func(c *Call) { c.Status, c.Decider = Approved, ByRule })
		return q.run(ctx, e, c.Command)
	}
	return q.ask(ctx, e)
}

// admit reserves an id for a new call, unless the queue is closed or its
// journal has failed: nothing runs that cannot be recorded.
func (q *Queue) admit() (ID, error) {
	if err := q.opts.Journal.Err(); err != nil {
		return 0, &JournalError{err}
	}
	q.mu.Lock()
	defer q.mu.Unlock()
	if q.closed {
		return 0, ErrClosed
	}
	q.nextID++
	q.wg.Add(1)
	return q.nextID, nil
}

// insert makes a call visible to snapshots.
func (q *Queue) insert(c Call, watch Watcher) *entry {
	e := &entry{call: c, decision: make(chan resolution, 1), watch: watch}
	q.mu.Lock()
	q.calls[c.ID] = e
	q.order = append(q.order, c.ID)
	q.mu.Unlock()
	return e
}

// secretArgs collects the text of secret parameters from raw arguments,
// for masking a call whose expansion failed.
func secretArgs(req Request) []string {
	var out []string
	for _, p := range req.Tool.Params {
		if p.Secret {
			out = append(out, config.SecretTexts(req.Args[p.Name])...)
		}
	}
	return out
}

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
		Decider: journal.ByRule, Rule: c.Decision.Rule, Reason: c.Decision.Reason}, c.Command)); err != nil {
		q.mu.Lock()
		q.pending--
		q.mu.Unlock()
		return q.refuse(e, ByJournal, err)
	}
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
	if !res.approve {
		rec := journal.Record{Decision: journal.Deny}
		if res.decider == ByClient {
			if err := q.record(&c, journal.Record{Event: journal.Decided, Decision: journal.Deny,
				Decider: journal.ByClient, Reason: res.reason}); err != nil {
				return q.refuse(e, ByJournal, err)
			}
			q.end(e, EventDecided, func(c *Call) { c.Status, c.Decider, c.Reason = Cancelled, ByClient, res.reason })
			return Outcome{Call: q.get(e)}, nil
		}
		return q.deny(e, res.decider, res.reason, rec)
	}
	cmd := c.Command
	if res.edited != nil {
		if err := q.record(&c, journal.Record{Event: journal.Edited,
			Edit: &journal.Edit{Before: c.Command.Argv, After: res.edited.Argv}}); err != nil {
			return q.refuse(e, ByJournal, err)
		}
		cmd = *res.edited
	}
	reason := "approved by the operator"
	if res.remember != nil {
		reason = fmt.Sprintf("approved by the operator, remembered (%s)", memoryName(res.remember.always))
	}
	if err := q.record(&c, withCommand(journal.Record{Event: journal.Decided, Decision: journal.Allow,
		Decider: journal.ByOperator, Reason: reason}, cmd)); err != nil {
		return q.refuse(e, ByJournal, err)
	}
	q.set(e, EventDecided, func(c *Call) {
		c.Status, c.Decider = Approved, ByOperator
		if res.edited != nil {
			orig := c.Command
			c.Original, c.Command, c.Hash = &orig, cmd, cmd.Hash()
		}
	})
	if err := q.waitSlot(ctx, e); err != nil {
		return q.runCancelled(e, err)
	}
	return q.run(ctx, e, cmd)
}

func memoryName(always bool) string {
	if always {
		return "always"
	}
	return "this session"
}

// deny records and publishes a denial.
func (q *Queue) deny(e *entry, by Decider, reason string, rec journal.Record) (Outcome, error) {
	rec.Event, rec.Decision, rec.Decider, rec.Reason = journal.Decided, journal.Deny, journalDecider(by), reason
	c := q.get(e)
	if err := q.record(&c, rec); err != nil {
		return q.refuse(e, ByJournal, err)
	}
	q.end(e, EventDecided, func(c *Call) { c.Status, c.Decider, c.Reason = Denied, by, reason })
	return Outcome{Call: q.get(e)}, nil
}

// refuseRecorded journals a refusal as a denial by what refused it, then
// ends the call with the error, so the journal never shows a call that
// was turned away as one still waiting.
func (q *Queue) refuseRecorded(e *entry, by Decider, cause error) (Outcome, error) {
	c := q.get(e)
	if err := q.record(&c, journal.Record{Event: journal.Decided, Decision: journal.Deny,
		Decider: journalDecider(by), Reason: cause.Error()}); err != nil {
		return q.refuse(e, ByJournal, err)
	}
	return q.refuse(e, by, cause)
}

// refuse ends a call that was never decided, with the error the front end
// returns to the client.
func (q *Queue) refuse(e *entry, by Decider, err error) (Outcome, error) {
	q.end(e, EventDecided, func(c *Call) { c.Status, c.Decider, c.Reason = Refused, by, err.Error() })
	return Outcome{Call: q.get(e)}, err
}

// runCancelled ends an approved call that never got to start.
func (q *Queue) runCancelled(e *entry, cause error) (Outcome, error) {
	reason := "cancelled before it started: " + cause.Error()
	c := q.get(e)
	_ = q.record(&c, journal.Record{Event: journal.Finished, Reason: reason, Error: reason})
	q.end(e, EventFinished, func(c *Call) {
		c.Status, c.Reason = Done, reason
		c.Result = &exec.Result{Cancelled: true, ExitCode: -1, StartError: reason}
	})
	return Outcome{Call: q.get(e)}, nil
}
