package queue

import (
	"context"
	"errors"

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
	p, expandErr := q.Preview(req)
	c := p.Call
	c.ID, c.Received = id, q.opts.Now()
	journalErr := q.journaled(&c, req.Tool)
	// From here on the entry is shared: its call is written under q.mu
	// only, by this goroutine, except where an operator action says so.
	e := q.insert(c, p.Input, req.Watch)
	if journalErr != nil {
		return q.refuse(e, ByJournal, journalErr)
	}
	received := journal.Record{Event: journal.Received, Tool: c.Tool, Client: c.Client,
		Session: c.Session, Args: c.journalArgs(), ReplayOf: c.ReplayOf}
	d := c.Decision
	if expandErr == nil && d.Action == policy.Allow && q.trySlot() {
		// Received, decided and started are written at once, before the
		// start: nothing the call does in between is seen outside the
		// queue, so one write serves for three. The console hears of the
		// approval before the write; a failed write ends the call refused.
		decided := withCommand(journal.Record{Event: journal.Decided, Decision: journal.Allow,
			Decider: ByRule, Rule: d.Rule, Reason: d.Reason}, c)
		q.set(e, EventDecided, func(c *Call) { c.Status, c.Decider = Approved, ByRule })
		unwritten := [3]journal.Record{received, decided} // and room for the start
		return q.run(ctx, e, unwritten[:2])
	}
	if err := q.record(&c, received); err != nil {
		return q.refuse(e, ByJournal, err)
	}
	switch {
	case expandErr != nil:
		return q.refuseRecorded(e, ByValidation, expandErr)
	case d.Action == policy.Deny:
		return q.deny(e, p.Decider, d.Reason, withCommand(journal.Record{Rule: d.Rule}, c))
	case d.Action == policy.Allow: // no running slot was free
		return q.refuseRecorded(e, ByLimit, &LimitError{"running", q.opts.MaxRunning})
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
func (q *Queue) insert(c Call, in policy.Input, watch Watcher) *entry {
	e := &entry{call: c, input: in, decision: make(chan resolution, 1), watch: watch, tail: NewTail(q.opts.OutputTail)}
	q.mu.Lock()
	q.calls[c.ID] = e
	q.order = append(q.order, c.ID)
	q.mu.Unlock()
	return e
}
