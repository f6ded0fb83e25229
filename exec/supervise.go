package exec

import (
	"context"
	"time"
)

// supervise waits until the leader exits, or ends its process group when
// the timeout passes, ctx is done or a stream overflows under Kill. All
// three end the same way: SIGTERM to the group, up to the grace period for
// the group to go, then SIGKILL to the group.
//
// The group is killed even after a leader that exited by itself: what it
// left running in its group is an orphan of an approved one-shot command,
// not something the operator approved to outlive it. It returns once the
// leader has exited, leaving the reaping to reap.
func (r *run) supervise(ctx context.Context, timeout time.Duration) Result {
	var res Result
	timer := time.NewTimer(timeout)
	defer timer.Stop()
	select {
	case <-r.exited:
	case <-timer.C:
		res.TimedOut = true
	case <-ctx.Done():
		res.Cancelled = true
	case <-r.overflow: // nil, so never ready, unless the command says Kill
		res.OverflowKilled = true
	}
	if res.TimedOut || res.Cancelled || res.OverflowKilled {
		r.terminate()
	}
	killGroup(r.c.Process)
	// SIGKILL cannot be caught or ignored, so this wait ends as soon as the
	// kernel has torn the leader down.
	<-r.exited
	return res
}

// terminate sends SIGTERM to the group and waits out the grace period, or
// less: until the leader has exited and the pipes are closed, the sign that
// the group's processes (which inherited them) are gone too. A grandchild
// handling SIGTERM thus gets the same grace as the leader.
func (r *run) terminate() {
	terminateGroup(r.c.Process)
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
