package main

import (
	"context"
	"sync"

	"github.com/assent-sh/assent/journal"
	"github.com/assent-sh/assent/queue"
)

// resubmit submits journaled calls again, one after another, as new calls:
// through today's tools, argument checks, policy and, when policy asks,
// the operator. Nothing recorded as approved is run on the record's
// strength, and a denied or interrupted call is asked about like any
// other. A call whose tool is gone, or whose secret arguments the journal
// masked, is skipped and logged. The returned func withdraws what is still
// waiting and returns when resubmission has stopped.
func (s *serving) resubmit(ctx context.Context, calls []journal.Call) (stop func()) {
	ctx, cancel := context.WithCancel(ctx)
	var wg sync.WaitGroup
	wg.Go(func() {
		for _, c := range calls {
			if ctx.Err() != nil {
				return
			}
			log := s.app.log.With("journaled_call", c.ID, "tool", c.Tool)
			tool := s.app.server.Config().Tool(c.Tool)
			switch {
			case tool == nil:
				log.Warn("replay: skipped, the tool no longer exists")
				continue
			case masked(c.Args):
				log.Warn("replay: skipped, the journal masked its secret arguments")
				continue
			}
			out, err := s.app.queue.Submit(ctx, queue.Request{Tool: tool, Args: c.Args, Client: c.Client,
				Session: "replay", Origin: "replay"})
			if err != nil {
				log.Warn("replay: refused", "err", err)
				continue
			}
			log.Info("replay", "call", out.Call.ID.String(), "status", string(out.Call.Status), "by", string(out.Call.Decider))
		}
	})
	return func() {
		cancel()
		wg.Wait()
	}
}
