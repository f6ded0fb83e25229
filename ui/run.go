package ui

import (
	"context"
	"errors"
	"os"
	"sync"

	tea "charm.land/bubbletea/v2"

	"github.com/assent-sh/assent/queue"
)

// Run shows the console until the operator quits or ctx ends. It starts
// the program and the one goroutine that feeds it the queue's events and
// the config changes, and joins that goroutine before returning. Quitting
// closes the queue (pending calls denied with "console closed", running
// ones killed); when ctx ends first, Run returns nil and the queue is the
// caller's to close. opts are passed to tea.NewProgram after the console's
// own, so tests can replace input, output and size.
func Run(ctx context.Context, o Options, opts ...tea.ProgramOption) error {
	if o.Queue == nil {
		return errors.New("ui: a queue is required")
	}
	if os.Getenv("NO_COLOR") != "" {
		o.NoColor = true
	}
	timers, stopTimers := context.WithCancel(context.Background())
	defer stopTimers()
	m := New(o)
	m.after = afterUntil(timers.Done())
	m.notify = notifierFor(os.Getenv)
	p := tea.NewProgram(m, append([]tea.ProgramOption{tea.WithContext(ctx)}, opts...)...)
	stop := startFeeder(ctx, o.Queue, o.Changes, p.Send)
	final, err := p.Run()
	stop()
	stopTimers()
	switch {
	case ctx.Err() != nil && errors.Is(err, tea.ErrProgramKilled):
		return nil
	case err != nil:
		return err
	}
	if m, ok := final.(Model); ok {
		if m.fatal != nil {
			return m.fatal
		}
		return m.closeErr
	}
	return nil
}

// startFeeder subscribes to the queue and sends the console its snapshot,
// then every event and every config change, in order, from one goroutine.
// send blocks until the program takes the message (and returns at once
// once the program has ended). The returned stop ends the goroutine,
// waits for it and closes the subscription.
func startFeeder(ctx context.Context, q *queue.Queue, changes <-chan Change, send func(tea.Msg)) (stop func()) {
	ctx, cancel := context.WithCancel(ctx)
	sub := q.Subscribe()
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		feed(ctx, q, sub, changes, send)
	}()
	return func() {
		cancel()
		// Close first: a feeder blocked in send to a program that never
		// reads again is released by the program's own end, and one
		// waiting on the subscription by Close.
		sub.Close()
		wg.Wait()
	}
}

func feed(ctx context.Context, q *queue.Queue, sub *queue.Subscription, changes <-chan Change, send func(tea.Msg)) {
	send(snapshotMsg{sub.Snapshot(), q.JournalError()})
	events := sub.Events()
	for {
		select {
		case <-ctx.Done():
			return
		case ev, ok := <-events:
			if !ok {
				if ctx.Err() == nil {
					send(fatalMsg{errors.New("the queue stopped sending events")})
				}
				return
			}
			send(eventMsg{ev, q.JournalError()})
		case c, ok := <-changes:
			if !ok {
				changes = nil
				continue
			}
			send(changeMsg{c})
		}
	}
}
