package main

import (
	"context"
	"sync"

	"github.com/assent-sh/assent/server"
)

// follow starts the watcher of the tool and policy files beside a
// transport. The returned stop ends it and waits for it.
func (a *app) follow(ctx context.Context) (stop func()) {
	ctx, cancel := context.WithCancel(ctx)
	var wg sync.WaitGroup
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
		wg.Wait()
	}
}
