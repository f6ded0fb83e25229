package main

import (
	"context"
	"sync"

	"github.com/assent-sh/assent/config"
	"github.com/assent-sh/assent/journal"
	"github.com/assent-sh/assent/replay"
)

// resubmit submits journaled calls again in the background (replay.Submit)
// against the tools in force, handing report each comparison (none when
// report is nil). The returned func withdraws what is still waiting and
// returns when resubmission has stopped.
func (s *serving) resubmit(ctx context.Context, calls []journal.Call, report func(replay.Comparison)) (stop func()) {
	if report == nil {
		report = func(replay.Comparison) {}
	}
	ctx, cancel := context.WithCancel(ctx)
	var wg sync.WaitGroup
	wg.Go(func() {
		tools := func(name string) *config.Tool { return s.app.server.Config().Tool(name) }
		replay.Submit(ctx, s.app.queue, tools, calls, s.app.log, report)
	})
	return func() {
		cancel()
		wg.Wait()
	}
}
