package main

import (
	"context"
	"sync"

	"github.com/assent-sh/assent/ui"
)

// consoleChanges watches the tool and policy files and hands each change
// to the console, which shows it and applies it only when the operator
// confirms. Every change, and every application, is logged too, since the
// log outlives the screen. The channel is nil when nothing is watched;
// stop ends the watcher and waits for it.
func (a *app) consoleChanges(ctx context.Context) (<-chan ui.Change, func()) {
	ctx, cancel := context.WithCancel(ctx)
	in := a.watch(ctx)
	if in == nil {
		return nil, cancel
	}
	out := make(chan ui.Change)
	var wg sync.WaitGroup
	wg.Go(func() {
		defer close(out)
		for c := range in {
			logChange(a.log, c)
			uc := ui.Change{Summary: c.Summary, Err: c.Err}
			if apply := c.Apply; apply != nil {
				uc.Apply = func() error {
					err := apply()
					if err != nil {
						a.log.Error("change not applied", "err", err)
					} else {
						a.log.Info("change applied by the operator; clients were told the tool list changed")
					}
					return err
				}
			}
			select {
			case out <- uc:
			case <-ctx.Done():
			}
		}
	})
	return out, func() {
		cancel()
		wg.Wait()
	}
}
