package exec

import (
	"context"
	"sync"
	"time"
)

// Run runs cmd to completion and reports how it ended; see Runner for the
// contract. No shell is involved: cmd.Path is executed with cmd.Argv as it
// is. An invalid command, a context already done, a program or path
// argument that changed since the command was shown, and a command the
// sandbox mode does not allow to run unconfined never start.
func (l *Local) Run(ctx context.Context, cmd Command, out func(Chunk)) Result {
	if err := cmd.Validate(); err != nil {
		return refused("invalid command: " + err.Error())
	}
	if err := ctx.Err(); err != nil {
		res := notStarted(exitNotStarted, "not started: "+err.Error())
		res.Cancelled = true
		return res
	}
	pl, why := l.prepare(cmd)
	if why != "" {
		res := refused(why)
		res.Confinement = pl.conf
		return res
	}
	r := &run{l: l, cmd: cmd, exited: make(chan struct{}), drained: make(chan struct{}), ended: make(chan struct{})}
	start := time.Now()
	if err := r.start(pl, out); err != nil {
		res := notStarted(explainStart(cmd, err))
		res.Confinement = pl.conf
		return res
	}
	// This goroutine waits for the exit in the kernel itself, as a bare
	// os/exec Wait does; the limits act from their own goroutines, started
	// only if one fires.
	disarm := r.enforce(ctx, l.Timeout(cmd.Timeout))
	r.awaitExit()
	close(r.exited)
	disarm()
	ending := r.settle()
	// Whatever the leader left running, in its group or out of it, is an
	// orphan of an approved one-shot command, not something the operator
	// approved to outlive it.
	r.killAll()
	code, sig := r.reap()
	res := Result{
		ExitCode:       code,
		Signal:         sig,
		Duration:       time.Since(start),
		TimedOut:       ending == endTimeout,
		Cancelled:      ending == endCancel,
		OverflowKilled: ending == endOverflow,
		Confinement:    pl.conf,
	}
	r.finishReading()
	if r.feed != nil {
		r.feed.close()
	}
	res.Stdout, res.Stderr = r.stdout.output(), r.stderr.output()
	return res
}

// run is the state of one started command.
type run struct {
	l   *Local
	cmd Command
	p   process // the started child, and how this system ends it

	stdout, stderr *capture
	feed           *feed
	io             streams       // how the output is read on this system
	drained        chan struct{} // closed when both streams hit EOF

	// endOnce is taken by the first limit to fire, or by the exit; ended
	// is closed when the ending it started, if any, is over.
	endOnce sync.Once
	endWhy  endReason
	ended   chan struct{}

	// exited is closed when the leader has exited. On Linux it is then a
	// zombie until reap; elsewhere awaitExit has already reaped it.
	exited chan struct{}

	// announced is the leader's pid as the kernel writes it while it forks
	// the leader, before the fork returns; other runs' sweeps read it (see
	// reaper.escaped), so they need not look at a leader not yet recorded.
	// Written by the kernel alone; read atomically. Linux, contained runs.
	announced int32
}

// newCaptures sets up the captures of both streams and, when out is set,
// the live feed.
func (r *run) newCaptures(out func(Chunk)) {
	limit := r.l.MaxOutput(r.cmd.MaxOutput)
	var overflow func()
	if r.cmd.OnOverflow == Kill {
		// Ending takes up to the grace period; the reader must go on
		// draining meanwhile.
		overflow = func() { go r.end(endOverflow) }
	}
	if out != nil {
		r.feed = newFeed(out, r.l.opts.FlushInterval)
	}
	r.stdout = newCapture(Stdout, limit, r.feed, overflow)
	r.stderr = newCapture(Stderr, limit, r.feed, overflow)
}
