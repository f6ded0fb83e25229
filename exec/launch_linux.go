//go:build linux

package exec

import (
	"errors"
	"runtime"
	"strconv"
	"syscall"

	"golang.org/x/sys/unix"
)

// launch is one child to start: what to execute and how the child sets
// itself up before it does.
type launch struct {
	setup
	path string // what to execute, when execFD is -1
	argv []string
	env  []string
	envp []*byte // env as execve takes it, when it is the Local's base one
	dir  string

	cloneflags  uintptr // namespaces of its own
	wantTID     bool    // report the thread the child was forked from
	stageAlways bool    // stage its descriptors however low they are (tests)
	// announce, if set, is where the kernel writes the child's pid as it
	// forks it, before the child runs (CLONE_PARENT_SETTID): the runner's
	// own fork only. It is cleared again if the child fails before exec.
	announce *int32
}

// setup is what the child does to itself between clone and exec that
// needs no converting for the system calls: the runner's own child takes
// it over from the launch as it is.
type setup struct {
	execFD int    // the program's descriptor, to execute through, or -1
	files  [3]int // become stdin, stdout, stderr; each 3 or more
	setsid bool   // a session of its own, else a process group of its own

	// The sandbox, which the child applies to itself; only the runner's
	// own fork can.
	netns  int             // a network namespace to join, or -1
	noRoot bool            // root's capabilities are not granted at exec
	nnp    bool            // no_new_privs
	filter *unix.SockFprog // the socket filter, or nil
	rules  int             // a Landlock ruleset, or -1

	nofile *unix.Rlimit // the open-file limit to give it back, or nil
}

// sandboxed reports whether ln asks for any part of the sandbox.
func (ln *launch) sandboxed() bool {
	return ln.netns >= 0 || ln.noRoot || ln.nnp || ln.filter != nil || ln.rules >= 0
}

// start starts ln with the runner's own fork when this system has it, and
// with syscall.ForkExec otherwise (which cannot apply a sandbox).
func (l *Local) start(ln *launch) (pid, pidfd, tid int, err error) {
	if l.rawFork() {
		var st *stage
		if l.os.staged && !l.simulate.noStage {
			st = l.os.stage
			ln.stageAlways = l.simulate.stageAlways
		}
		return rawStart(ln, st)
	}
	if ln.sandboxed() {
		return 0, -1, 0, errors.New("the sandbox needs the runner's own fork, which this system lacks")
	}
	return forkExecStart(ln)
}

// forkExecStart starts ln with syscall.ForkExec.
func forkExecStart(ln *launch) (pid, pidfd, tid int, err error) {
	path := ln.path
	if ln.execFD >= 0 {
		path = "/proc/self/fd/" + strconv.Itoa(ln.execFD)
	}
	pidfd = -1
	sys := &syscall.SysProcAttr{Setpgid: !ln.setsid, Setsid: ln.setsid, Cloneflags: ln.cloneflags, PidFD: &pidfd}
	attr := &syscall.ProcAttr{Dir: ln.dir, Env: ln.env, Sys: sys,
		Files: []uintptr{uintptr(ln.files[0]), uintptr(ln.files[1]), uintptr(ln.files[2])}}
	if ln.wantTID {
		runtime.LockOSThread()
		defer runtime.UnlockOSThread()
		tid = unix.Gettid()
	}
	pid, err = syscall.ForkExec(path, ln.argv, attr)
	return pid, pidfd, tid, err
}

// rawFork reports whether the runner's own fork works here (see
// osState.rawFork), unless a test made it do without.
func (l *Local) rawFork() bool { return !l.simulate.noRawFork && l.os.rawFork() }

// rawFork reports, once, whether the runner's own fork works here: the
// architecture has it, and the kernel has clone3 with CLONE_CLEAR_SIGHAND
// (Linux 5.5) and lets this process use it (a container's seccomp profile
// may refuse clone3). Where it works, it also finds out whether children's
// descriptors can be staged (close_range's CLOSE_RANGE_UNSHARE, Linux 5.9).
func (s *osState) rawFork() bool {
	s.rawForkOnce.Do(func() {
		if !rawForkArch {
			return
		}
		fd, err := s.devnull()
		if err != nil {
			return
		}
		if s.stage != nil && reachesExec(probeLaunch(fd), s.stage) {
			s.rawForkOK, s.staged = true, true
			return
		}
		s.rawForkOK = reachesExec(probeLaunch(fd), nil)
	})
	return s.rawForkOK
}

// filterWorks reports whether a child may install prog: the kernel has
// seccomp filters and nothing above this process (a container's own
// filter, say) refuses them. It forks a child that tries, once.
func (s *osState) filterWorks(prog *unix.SockFprog) bool {
	fd, err := s.devnull()
	if err != nil {
		return false
	}
	ln := probeLaunch(fd)
	ln.nnp, ln.filter = true, prog
	return reachesExec(ln, nil)
}

// probeLaunch is a child that execs a path that does not exist, with fd
// as its standard streams: it fails at exec when all before went well.
func probeLaunch(fd int) *launch {
	return &launch{setup: setup{execFD: -1, files: [3]int{fd, fd, fd}, netns: -1, rules: -1},
		path: "/nonexistent/assent-probe", argv: []string{"probe"}}
}

// reachesExec starts ln with the runner's own fork, staged on st unless st
// is nil, and reports whether its child got as far as exec.
func reachesExec(ln *launch, st *stage) bool {
	pid, pidfd, _, err := rawStart(ln, st)
	if err == nil {
		// Neither failed nor executed: something killed the child (a
		// seccomp profile that kills on a call it refuses, say).
		unix.Close(pidfd)
		reapChild(pid)
		return false
	}
	var se *startError
	return errors.As(err, &se) && se.step == stepExec
}

// reapChild waits for the child pid to end, which it has or is about to.
func reapChild(pid int) {
	var ws syscall.WaitStatus
	for {
		if _, err := syscall.Wait4(pid, &ws, 0, nil); err != syscall.EINTR {
			return
		}
	}
}

// Steps of the child between clone and exec, for the error a failed start
// reports.
const (
	stepSession uint32 = iota + 1
	stepNetns
	stepCapabilities
	stepNoNewPrivs
	stepSeccomp
	stepLandlock
	stepFiles
	stepDir
	stepExec
)

// startError is how the runner's own fork failed: clone3 itself (op), or
// a step of the child.
type startError struct {
	op   string
	step uint32
	err  syscall.Errno
}

// Error names what failed; a failed exec is its errno alone, which
// explainStart puts in words.
func (e *startError) Error() string {
	what := e.op
	switch e.step {
	case stepSession:
		what = "making its process group"
	case stepNetns:
		what = "joining the empty network namespace"
	case stepCapabilities:
		what = "dropping root's capabilities"
	case stepNoNewPrivs:
		what = "setting no_new_privs"
	case stepSeccomp:
		what = "installing the socket filter"
	case stepLandlock:
		what = "entering the Landlock sandbox"
	case stepFiles:
		what = "setting up its standard streams"
	case stepDir:
		what = "changing to its working directory"
	case stepExec:
		return e.err.Error()
	}
	return what + ": " + e.err.Error()
}

// Unwrap returns the errno.
func (e *startError) Unwrap() error { return e.err }
