//go:build !linux

package exec

import (
	osexec "os/exec"
	"strings"
	"time"
)

// plan is how one command will be started. Here there is no sandbox, so it
// only carries what the Result reports.
type plan struct {
	conf Confinement
}

// noSandboxHere is why a command runs unconfined on this system.
const noSandboxHere = "this system has no sandbox the runner can use"

// process is a started child, through os/exec.
type process struct {
	c      *osexec.Cmd
	reaped bool
}

// prepare checks cmd's program and path arguments again and decides its
// confinement. This system has no kernel sandbox the runner uses, so a
// sandboxed command runs unconfined, or is refused when the sandbox is
// required.
func (l *Local) prepare(cmd Command) (*plan, string) {
	pl := &plan{conf: Confinement{Network: NetworkUnconfined, Containment: ContainGroup, Unconfined: noSandboxHere}}
	if l.opts.Sandbox == SandboxOff {
		pl.conf.Unconfined = "the sandbox is off"
	}
	if why := l.checkHeld(cmd); why != "" {
		return pl, why
	}
	if cmd.Sandbox != nil && l.opts.Sandbox == SandboxRequired {
		return pl, "sandbox required, but " + pl.conf.Unconfined
	}
	return pl, ""
}

// checkHeld returns why cmd may not run if a path argument or its program
// changed since the call was shown. The program is compared by path: this
// system cannot execute the file that was checked.
func (l *Local) checkHeld(cmd Command) string {
	if why := l.checkPaths(cmd); why != "" {
		return why
	}
	if cmd.Program.IsZero() {
		return ""
	}
	if id, err := IdentityOf(cmd.Path, false); err == nil && !id.Same(cmd.Program) {
		return programChanged(cmd.Path)
	}
	return "" // a program that is gone is reported by the start
}

// start launches the child with its pipes and readers.
func (r *run) start(_ *plan, out func(Chunk)) error {
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
	r.p.c = c
	r.startReaders(outR, errR, out)
	return nil
}

// armTimeout ends the run when timeout has passed, from a timer.
func (r *run) armTimeout(timeout time.Duration) (stop func()) {
	t := time.AfterFunc(timeout, func() { r.end(endTimeout) })
	return func() { t.Stop() }
}

// armSlow gives s's notice from a timer once the run has lasted its After.
func (r *run) armSlow(s *Slow) (stop func()) {
	if s == nil {
		return func() {}
	}
	return slowTimer(s, s.after)
}

// awaitExit returns when the leader has exited. Waiting without reaping is
// not possible here, so it reaps at once; the final kill of the group then
// comes after the reap: if the group is empty by then, its id could in
// principle have been reused, a window Linux does not have.
func (r *run) awaitExit() {
	_ = r.p.c.Wait() // the status is read from ProcessState in reap
	r.p.reaped = true
}

// terminateAll asks the leader's process group to end.
func (r *run) terminateAll() { terminateGroup(r.p.c.Process) }

// killAll ends the leader's process group.
func (r *run) killAll() { killGroup(r.p.c.Process) }

// reap returns the leader's exit status.
func (r *run) reap() (code int, signal string) {
	if !r.p.reaped {
		_ = r.p.c.Wait()
	}
	if r.p.c.ProcessState == nil {
		// Only if waiting itself failed, which a started child not waited
		// for before cannot cause; report an unknown status.
		return -1, ""
	}
	return exitStatus(r.p.c.ProcessState)
}

// osState is what a Local keeps for this system: nothing.
type osState struct{}

// init prepares nothing.
func (*osState) init(*Local) {}

// close releases nothing.
func (*osState) close() {}
