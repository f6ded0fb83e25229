package main

import (
	"context"
	"sync"

	"github.com/assent-sh/assent/server"
)

// follow starts what runs beside a transport: the log of ended calls and
// the watcher of the tool and policy files. The returned stop ends both
// and waits for them.
func (a *app) follow(ctx context.Context) (stop func()) {
	ctx, cancel := context.WithCancel(ctx)
	var wg sync.WaitGroup
	sub := a.queue.Subscribe()
	wg.Go(func() { logCalls(sub, a.log) })
	if files := a.watchedFiles(); len(files) > 0 {
		changes, err := a.server.Watch(ctx, server.WatchOptions{Files: files, Load: a.load})
		if err != nil {
			a.log.Warn("tool files are not watched", "err", err)
		} else {
			wg.Go(func() { followChanges(changes, a.opts.watch, a.log) })
		}
	}
	return func() {
		cancel()
		sub.Close()
		wg.Wait()
	}
}
