package exec

import (
	"context"
	"sync/atomic"
	"time"
)

// Slow is a caller's wish to hear when a call turns out slow: its notice
// is given once, when a run under the context has gone on for After
// without ending, or at once by whatever makes the call wait for something
// else first (the queue, for an operator). A front end that watches
// something of its own while a call lasts, such as a client's connection
// for the client going away, starts watching only then: a short run costs
// it nothing, not even a timer, since a run alone counts After in its own
// wait for the child (see armTimeout), as it counts the timeout.
type Slow struct {
	after  time.Duration
	notify func()
	given  atomic.Bool
}

// NewSlow returns a Slow whose notice, notify, is given once a run has
// lasted after. notify must return quickly; it may be called from any
// goroutine, including the one running the call.
func NewSlow(after time.Duration, notify func()) *Slow {
	return &Slow{after: after, notify: notify}
}

type slowKey struct{}

// WithSlow returns ctx carrying s for the runs and waits under it.
func WithSlow(ctx context.Context, s *Slow) context.Context {
	return context.WithValue(ctx, slowKey{}, s)
}

// SlowOf returns the Slow ctx carries, or nil.
func SlowOf(ctx context.Context) *Slow {
	s, _ := ctx.Value(slowKey{}).(*Slow)
	return s
}

// After is how long a run lasts before it is slow.
func (s *Slow) After() time.Duration { return s.after }

// Give gives the notice, unless it was given before. A nil Slow does
// nothing.
func (s *Slow) Give() {
	if s != nil && s.given.CompareAndSwap(false, true) {
		s.notify()
	}
}

// pending reports whether the notice is still to be given.
func (s *Slow) pending() bool { return s != nil && !s.given.Load() }

// slowTimer gives s's notice from a timer once its After has passed, where
// a run cannot count it in its own wait. The returned func disarms it.
func slowTimer(s *Slow, after time.Duration) (stop func()) {
	if !s.pending() {
		return func() {}
	}
	t := time.AfterFunc(after, s.Give)
	return func() { t.Stop() }
}
