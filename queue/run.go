package queue

import (
	"context"

	"github.com/assent-sh/assent/exec"
	"github.com/assent-sh/assent/journal"
)

// trySlot takes a running slot if one is free.
func (q *Queue) trySlot() bool {
	select {
	case q.slots <- struct{}{}:
		return true
	default:
		return false
	}
}

func (q *Queue) releaseSlot() { <-q.slots }

// waitSlot waits for a running slot for a call the operator approved: it
// passed the limits when it arrived, so it queues rather than fails. The
// wait ends early when the client goes away or the operator kills it.
func (q *Queue) waitSlot(ctx context.Context, e *entry) error {
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	q.mu.Lock()
	e.kill = cancel
	q.stopIfEndingLocked(e)
	q.mu.Unlock()
	select {
	case q.slots <- struct{}{}:
		return nil
	case <-ctx.Done():
		return context.Cause(ctx)
	}
}

// stopIfEndingLocked cancels the call's context when it was killed or the
// queue closed before its kill function was in place: Kill and Close only
// reach the calls whose kill function they find, under the same lock.
func (q *Queue) stopIfEndingLocked(e *entry) {
	switch {
	case e.call.Killed:
		e.kill(errKilled)
	case q.closed:
		e.kill(errShutdown)
	}
}

// run starts the approved command, holding a running slot, and waits for
// its end. The command is the one approved: a Call's Command is a value
// frozen when it was shown (or edited), with its hash taken then.
// unwritten are the call's records not yet written (its receipt and a
// rule's decision), which go to the journal in one write with its started
// record; given room for it, they are not copied to add it.
func (q *Queue) run(ctx context.Context, e *entry, unwritten []journal.Record) (Outcome, error) {
	defer q.releaseSlot()
	c := q.get(e)
	runCtx, kill := context.WithCancelCause(ctx)
	defer kill(nil)
	q.mu.Lock()
	e.kill = kill
	q.stopIfEndingLocked(e)
	q.mu.Unlock()
	if err := q.record(&c, append(unwritten, journal.Record{Event: journal.Started, CommandHash: c.Hash})...); err != nil {
		return q.refuse(e, ByJournal, err)
	}
	q.set(e, EventStarted, func(c *Call) { c.Status, c.Started = Running, q.opts.Now() })
	// Live output costs a goroutine and a wake-up per chunk; it is only
	// asked for when someone watches. A subscriber that attaches later
	// gets the output kept from the result, in its snapshot or as output
	// events just before the call's end.
	q.mu.Lock()
	live := len(q.subs) > 0 || e.watch != nil
	q.mu.Unlock()
	var out func(exec.Chunk)
	if live {
		out = func(ch exec.Chunk) { q.output(e, ch) }
	}
	res := q.opts.Runner.Run(runCtx, c.Command, out)
	ending := ranEnding(res, runCtx)
	q.mu.Lock()
	e.kill = nil
	if !live {
		e.tail.keep(res)
		// A subscriber that attached while the call ran has seen none of
		// its output: it gets the kept tail now, before the end.
		for _, ch := range e.tail.Chunks() {
			q.publishLocked(Event{Kind: EventOutput, Call: Call{ID: e.call.ID, Tool: e.call.Tool, Status: e.call.Status}, Output: &ch})
		}
	}
	q.mu.Unlock()
	// The process has ended: a journal failure now cannot undo it, so the
	// result still goes back to the client, and the journal's failed state
	// stops the next call.
	_ = q.record(&c, finishedRecord(c, res, ending))
	q.end(e, EventFinished, func(c *Call) { c.Status, c.Result, c.Ending = Done, &res, ending })
	return Outcome{Call: q.get(e)}, nil
}

// output keeps a running call's output for snapshots and hands it to
// subscribers.
func (q *Queue) output(e *entry, ch exec.Chunk) {
	q.mu.Lock()
	e.tail.Add(ch)
	ev := Event{Kind: EventOutput, Call: Call{ID: e.call.ID, Tool: e.call.Tool, Status: e.call.Status}, Output: &ch}
	q.publishLocked(ev)
	q.mu.Unlock()
	e.notify(ev)
}

// get returns a copy of the call.
func (q *Queue) get(e *entry) Call {
	q.mu.Lock()
	defer q.mu.Unlock()
	return e.call.clone()
}

// set changes the call and publishes the change.
func (q *Queue) set(e *entry, kind EventKind, change func(c *Call)) {
	q.mu.Lock()
	change(&e.call)
	ev := Event{Kind: kind, Call: e.call.clone()}
	q.publishLocked(ev)
	q.mu.Unlock()
	e.notify(ev)
}

// end is set for a change that ends the call; it stamps the end time and
// trims the history to its bound.
func (q *Queue) end(e *entry, kind EventKind, change func(c *Call)) {
	q.mu.Lock()
	change(&e.call)
	e.call.Ended = q.opts.Now()
	ev := Event{Kind: kind, Call: e.call.clone()}
	q.publishLocked(ev)
	q.trimLocked()
	q.mu.Unlock()
	e.notify(ev)
}

// trimLocked forgets the oldest ended calls beyond the history bound. It
// counts ended calls as they end and trims in batches, only once the
// count passes the bound by a quarter: a scan of the whole history at
// every call's end cost more than the rest of the queue's bookkeeping.
func (q *Queue) trimLocked() {
	q.ended++
	if q.ended <= q.opts.History+q.opts.History/4 {
		return
	}
	drop := q.ended - q.opts.History
	kept := q.order[:0]
	for _, id := range q.order {
		if drop > 0 && q.calls[id].call.Status.Ended() {
			delete(q.calls, id)
			drop--
			q.ended--
			continue
		}
		kept = append(kept, id)
	}
	clear(q.order[len(kept):])
	q.order = kept
}
