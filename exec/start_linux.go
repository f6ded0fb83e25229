//go:build linux

package exec

import (
	"sync/atomic"
	"syscall"

	"golang.org/x/sys/unix"
)

// plan is how one command will be started, decided before the fork.
type plan struct {
	conf Confinement
	// prog is the program opened with O_PATH, or -1; closed once the child
	// has been started.
	prog int
	// execFD says the child executes prog itself, so that the file whose
	// identity was checked is the file that runs; otherwise the path.
	execFD bool
	// rules is the sandbox the child applies to itself; nil: none.
	rules *sandboxRules
	// cloneflags are the namespaces the child gets of its own.
	cloneflags uintptr
}

// release closes what the plan held once the child has been started (or
// could not be).
func (pl *plan) release() {
	if pl.prog >= 0 {
		unix.Close(pl.prog)
		pl.prog = -1
	}
	if pl.rules != nil {
		pl.rules.release()
		pl.rules = nil
	}
}

// process is a started child.
type process struct {
	pid int
	// tid is the thread that forked it: its parent, to which a child the
	// leader starts with CLONE_PARENT belongs too.
	tid int
	// nsInit is true when the child is PID 1 of a namespace of its own.
	nsInit bool
	// termEmulated is set when SIGTERM's default action had to be carried
	// out with SIGKILL, because a namespace init cannot receive SIGTERM
	// without a handler for it.
	termEmulated atomic.Bool
	// held is true when the subreaper contains the run's processes.
	held  bool
	stdin *stdinFeed // nil when the child reads /dev/null
}

// start launches the child with its pipes.
func (r *run) start(pl *plan, out func(Chunk)) error {
	defer pl.release()
	stdin, err := r.l.newStdin(r.cmd.Stdin)
	if err != nil {
		return err
	}
	var fds [4]int // stdout read, write; stderr read, write
	for i := 0; i < 4; i += 2 {
		if fds[i], fds[i+1], err = newPipe(); err != nil {
			stdin.started(false)
			closeAll(fds[:i])
			return err
		}
	}
	ln := &launch{setup: setup{execFD: -1, files: [3]int{stdin.childEnd(), fds[1], fds[3]}, setsid: r.l.opts.NewSession,
		netns: -1, rules: -1, nofile: r.l.os.nofile()},
		path: r.cmd.Path, argv: r.cmd.Argv, env: r.l.environ(r.cmd.Env), dir: r.cmd.Dir, cloneflags: pl.cloneflags}
	if pl.execFD {
		ln.execFD = pl.prog
	}
	if len(r.cmd.Env) == 0 {
		ln.envp = r.l.os.baseEnvp
	}
	if sr := pl.rules; sr != nil {
		ln.netns, ln.rules, ln.nnp, ln.noRoot = sr.netns, sr.landlock, true, r.l.os.sandbox.noRoot
		if sr.filter {
			ln.filter = r.l.os.sandbox.fprog
		}
	}
	contained := pl.conf.Containment == ContainSubreaper
	if contained {
		// The sweep looks at the forking thread's children too, and knows
		// the leader for one from the moment it is forked.
		ln.wantTID, ln.announce = true, &r.announced
		r.l.os.reaper.begin(r)
	}
	pid, pidfd, tid, err := r.l.start(ln)
	// The child has its own copies of the pipes' write ends; ours must go,
	// or EOF never comes. With a pidfd they go when the leader has exited
	// (see streams.writers).
	holding := err == nil && pidfd >= 0
	if !holding {
		closeAll([]int{fds[1], fds[3]})
	}
	feed := stdin.started(err == nil)
	if err != nil {
		if contained {
			r.l.os.reaper.finish(r)
		}
		closeAll([]int{fds[0], fds[2]})
		return err
	}
	r.p = process{pid: pid, tid: tid, nsInit: pl.cloneflags&unix.CLONE_NEWPID != 0, held: contained, stdin: feed}
	if contained {
		r.l.os.reaper.started(r, pid)
	}
	r.io = streams{fds: [2]int{fds[0], fds[2]}, writers: [2]int{fds[1], fds[3]}, pidfd: pidfd}
	r.io.holding.Store(holding)
	r.newCaptures(out)
	return nil
}

// closeAll closes descriptors the runner opened.
func closeAll(fds []int) {
	for _, fd := range fds {
		unix.Close(fd)
	}
}

// terminateAll asks every process of the call to end: SIGTERM to the
// group, SIGCONT after it (a stopped process keeps SIGTERM pending until it
// runs again, and would sit out the whole grace period), and the same to
// the call's processes that left the group where containment finds them.
// It lets go of this process's copies of the pipes first (see
// streams.writers): terminate waits for the pipes' hangup, which the run's
// own reading sees only while it waits for the leader, so copies held to
// the leader's exit would make every ending sit out the grace.
func (r *run) terminateAll() {
	r.io.closeWriters()
	r.signal(syscall.SIGTERM)
	r.signal(syscall.SIGCONT)
	switch {
	case r.p.nsInit:
		r.terminateInit()
	case r.p.held:
		r.l.os.reaper.sweep(r, syscall.SIGTERM)
	}
}

// killAll ends every process of the call. Called while the leader is not
// yet reaped, so its group id cannot have been reused by a stranger.
func (r *run) killAll() {
	exited := r.leaderExited()
	if exited {
		_ = syscall.Kill(-r.p.pid, syscall.SIGKILL)
	} else {
		// From outside its namespace SIGKILL reaches an init too, and the
		// kernel ends every other process in the namespace with it.
		r.signal(syscall.SIGKILL)
	}
	if r.p.held && !r.p.nsInit && !exited {
		r.l.os.reaper.sweep(r, syscall.SIGKILL)
	}
}

// signal sends sig to the call's process group and to its leader, which
// may have left the group: a group leader may join another group of its
// session (this process's own, while the calls share its session), where
// the group's signal no longer reaches it, and the sweeps never take the
// leader for an escapee. SIGKILL goes to the leader whatever its group; any
// other signal only when it is out of the group, since a second SIGTERM
// tells many programs to give up their graceful end. Called while the
// leader is not yet reaped, so neither number can have been given again.
func (r *run) signal(sig syscall.Signal) {
	_ = syscall.Kill(-r.p.pid, sig)
	if sig != syscall.SIGKILL {
		if pgid, err := syscall.Getpgid(r.p.pid); err != nil || pgid == r.p.pid {
			return
		}
	}
	_ = syscall.Kill(r.p.pid, sig)
}

// leaderExited reports whether the leader has exited. Once it has, reap
// sweeps for escaped processes after reaping it, where one system call can
// tell that none are left.
func (r *run) leaderExited() bool {
	select {
	case <-r.exited:
		return true
	default:
		return false
	}
}

// reap collects the leader's exit status and, under the subreaper, ends
// what escaped the call's group when this process has a child left (see
// leaderExited); then it waits (within WaitDelay) for the stdin feed to
// end. By now every process of the call that the runner can reach is gone.
func (r *run) reap() (code int, signal string) {
	var ws syscall.WaitStatus
	var err error
	for {
		if _, err = syscall.Wait4(r.p.pid, &ws, 0, nil); err != syscall.EINTR {
			break
		}
	}
	if r.p.held {
		r.l.os.reaper.reaped(r)
		if r.l.os.reaper.hasChildren() {
			r.l.os.reaper.sweep(r, syscall.SIGKILL)
		}
		r.l.os.reaper.finish(r)
	}
	if r.p.stdin != nil {
		r.p.stdin.wait(r.l.opts.WaitDelay)
	}
	if err != nil {
		return -1, "" // only if the leader was reaped elsewhere
	}
	if r.p.termEmulated.Load() && ws.Signaled() && ws.Signal() == syscall.SIGKILL {
		return 128 + int(syscall.SIGTERM), signalName(syscall.SIGTERM)
	}
	return waitStatus(ws)
}
