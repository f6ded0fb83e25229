package exec

import (
	"context"
	"time"
)

// endReason says why a run was ended before its leader exited by itself.
type endReason uint8

const (
	notEnded endReason = iota
	endTimeout
	endCancel
	endOverflow
)

// enforce arms the run's limits: the timeout and ctx, which a caller
// cancels when its client gives up and the server cancels when it shuts
// down, so all three end a run the same way. Nothing waits on them
// until one fires (context.AfterFunc starts no goroutine before then, and
// the timeout is kept as this system can keep it most cheaply), so a run
// that ends by itself pays for no extra goroutine or thread wakeup. ctx's
// Slow notice, if any, is kept the same way. The returned func disarms
// them.
func (r *run) enforce(ctx context.Context, timeout time.Duration) (disarm func()) {
	stopTimer := r.armTimeout(timeout)
	stopSlow := r.armSlow(SlowOf(ctx))
	stop := context.AfterFunc(ctx, func() { r.end(endCancel) })
	return func() {
		stopTimer()
		stopSlow()
		stop()
	}
}

// end ends the call's processes for why, unless the leader has exited
// already or another limit got there first. Timeout, cancellation and an
// overflow under Kill all end the same way: SIGTERM to the group (and to
// the call's processes that left it, where containment finds them), up to
// the grace period for them to go, then SIGKILL to all of them. SIGKILL
// cannot be caught or ignored, so the leader's exit follows at once.
func (r *run) end(why endReason) {
	first := false
	r.endOnce.Do(func() { r.endWhy, first = why, true })
	if !first {
		return
	}
	defer close(r.ended)
	r.terminate()
	r.killAll()
}

// settle is called once the leader has exited. It keeps any limit that
// fires later from acting, waits for an ending already under way to finish
// (so no signal is sent after the leader is reaped) and says why the run was
// ended, if it was.
func (r *run) settle() endReason {
	r.endOnce.Do(func() { close(r.ended) })
	<-r.ended
	return r.endWhy
}

// terminate sends SIGTERM to the call and waits out the grace period, or
// less: until the leader has exited and the pipes are closed, the sign that
// the group's processes (which inherited them) are gone too. A grandchild
// handling SIGTERM thus gets the same grace as the leader.
func (r *run) terminate() {
	r.terminateAll()
	grace := time.NewTimer(r.l.opts.Grace)
	defer grace.Stop()
	exited, drained := r.exited, r.drained
	for exited != nil || drained != nil {
		select {
		case <-exited:
			exited = nil
		case <-drained:
			drained = nil
		case <-grace.C:
			return
		}
	}
}
