package main

import (
	"context"
	"sync"

	"github.com/assent-sh/assent/setup"
)

// watch starts the watcher of the tool and policy files and returns its
// changes, or nil when no file is watched (the embedded pack) or the
// watcher could not start. Headless mode follows them with followChanges;
// the console shows them and applies one when the operator confirms.
func (a *app) watch(ctx context.Context) <-chan setup.Change {
	changes, err := a.reloader.Watch(ctx, 0)
	if err != nil {
		a.log.Warn("tool files are not watched", "err", err)
		return nil
	}
	return changes
}

// followHeadless reports changes to the files, applying them with
// --watch, until the returned stop, which waits for it to end. The watch
// starts beside the serving: watching a program's directory costs the
// kernel a walk of its entries (half a millisecond for /usr/bin), and a
// file changed meanwhile is looked at once the watch has begun.
func (a *app) followHeadless(ctx context.Context) (stop func()) {
	ctx, cancel := context.WithCancel(ctx)
	var wg sync.WaitGroup
	wg.Go(func() {
		if changes := a.watch(ctx); changes != nil {
			followChanges(changes, a.opts.watch, a.log)
		}
	})
	return func() {
		cancel()
		wg.Wait()
	}
}
