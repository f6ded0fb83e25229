package exec

import (
	"context"
	"os"
	osexec "os/exec"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// Run runs cmd to completion and reports how it ended; see Runner for the
// contract. No shell is involved: cmd.Path is executed with cmd.Argv as it
// is. An invalid command, or a context already done, never starts.
func (l *Local) Run(ctx context.Context, cmd Command, out func(Chunk)) Result {
	if err := cmd.Validate(); err != nil {
		return notStarted(exitNotStarted, "invalid command: "+err.Error())
	}
	if err := ctx.Err(); err != nil {
		res := notStarted(exitNotStarted, "not started: "+err.Error())
		res.Cancelled = true
		return res
	}
	r := &run{l: l, cmd: cmd, exited: make(chan struct{}), drained: make(chan struct{}), ended: make(chan struct{})}
	start := time.Now()
	if err := r.start(out); err != nil {
		return notStarted(explainStart(cmd, err))
	}
	// This goroutine waits for the exit in the kernel itself, as a bare
	// os/exec Wait does; the limits act from their own goroutines, started
	// only if one fires.
	disarm := r.enforce(ctx, l.Timeout(cmd.Timeout))
	r.awaitExit()
	close(r.exited)
	disarm()
	why := r.settle()
	// Whatever the leader left running in its group is an orphan of an
	// approved one-shot command, not something the operator approved to
	// outlive it.
	killGroup(r.c.Process)
	code, sig := r.reap()
	res := Result{
		ExitCode:       code,
		Signal:         sig,
		Duration:       time.Since(start),
		TimedOut:       why == endTimeout,
		Cancelled:      why == endCancel,
		OverflowKilled: why == endOverflow,
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
	c   *osexec.Cmd

	stdout, stderr *capture
	feed           *feed
	pipes          [2]*os.File   // read ends, closed by finishReading
	drained        chan struct{} // closed when both readers hit EOF

	// endOnce is taken by the first limit to fire, or by the exit; ended
	// is closed when the ending it started, if any, is over.
	endOnce sync.Once
	endWhy  endReason
	ended   chan struct{}

	// exited is closed when the leader has exited. On Linux it is then a
	// zombie until reap; elsewhere awaitExit has already reaped it.
	exited chan struct{}
	reaped bool
}

// start launches the child with its pipes and readers.
func (r *run) start(out func(Chunk)) error {
	c := &osexec.Cmd{
		Path:      r.cmd.Path,
		Args:      r.cmd.Argv,
		Dir:       r.cmd.Dir,
		Env:       r.l.environ(r.cmd.Env),
		WaitDelay: r.l.opts.WaitDelay,
	}
	if r.cmd.Stdin != "" {
		// os/exec copies it in from a goroutine that Wait collects,
		// within WaitDelay if a grandchild holds stdin open unread.
		c.Stdin = strings.NewReader(r.cmd.Stdin)
	}
	// Otherwise Stdin stays nil, which os/exec turns into /dev/null.
	ownGroup(c, r.l.opts.NewSession)
	outR, outW, err := newPipe()
	if err != nil {
		return err
	}
	errR, errW, err := newPipe()
	if err != nil {
		outR.Close()
		outW.Close()
		return err
	}
	c.Stdout, c.Stderr = outW, errW
	err = c.Start()
	// The child has its own copies; ours must go, or EOF never comes.
	outW.Close()
	errW.Close()
	if err != nil {
		outR.Close()
		errR.Close()
		return err
	}
	r.c, r.pipes = c, [2]*os.File{outR, errR}

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
	var left atomic.Int32
	left.Store(2)
	for i, cp := range []*capture{r.stdout, r.stderr} {
		go func() {
			cp.drain(r.pipes[i])
			if left.Add(-1) == 0 {
				close(r.drained)
			}
		}()
	}
	return nil
}

// awaitExit returns when the leader has exited, reaping it only where
// waiting without reaping is not possible.
func (r *run) awaitExit() {
	if err := awaitExit(r.c.Process); err != nil {
		_ = r.c.Wait() // the status is read from ProcessState in reap
		r.reaped = true
	}
}

// reap collects the leader's exit status. The leader has exited and its
// group has been killed by now, so this waits at most for the stdin copy,
// which WaitDelay bounds.
func (r *run) reap() (code int, signal string) {
	if !r.reaped {
		// A non-zero exit and ErrWaitDelay (stdin held open) come back as
		// errors too; the status is in ProcessState either way.
		_ = r.c.Wait()
	}
	if r.c.ProcessState == nil {
		// Only if waiting itself failed, which a started child not waited
		// for before cannot cause; report an unknown status.
		return -1, ""
	}
	return exitStatus(r.c.ProcessState)
}

// finishReading waits for both readers to reach EOF. Once the group is dead
// only processes that left it (setsid, a daemonising grandchild) can hold
// the pipes, and they get WaitDelay; then the reads are cut off so the call
// cannot be held open by them.
func (r *run) finishReading() {
	t := time.NewTimer(r.l.opts.WaitDelay)
	defer t.Stop()
	select {
	case <-r.drained:
	case <-t.C:
		for _, p := range r.pipes {
			if p.SetReadDeadline(time.Now()) != nil {
				p.Close() // not pollable: closing is the only way to end the read
			}
		}
		<-r.drained
	}
	for _, p := range r.pipes {
		p.Close()
	}
}
