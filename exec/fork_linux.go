//go:build linux && (amd64 || arm64)

package exec

import (
	"runtime"
	"sync/atomic"
	"syscall"
	"unsafe"

	"golang.org/x/sys/unix"
)

// rawForkArch says this architecture has the runner's own fork.
const rawForkArch = true

// rawStart starts ln with the runner's own fork, its descriptors staged on
// st unless st is nil.
func rawStart(ln *launch, st *stage) (pid, pidfd, tid int, err error) {
	c := &child{setup: ln.setup, execAt: ln.execFD}
	if c.path, err = syscall.BytePtrFromString(ln.path); err != nil {
		return 0, -1, 0, err
	}
	c.empty = new(byte) // "": the empty path execveat runs the descriptor with
	argv, err := syscall.SlicePtrFromStrings(ln.argv)
	if err != nil {
		return 0, -1, 0, err
	}
	envp := ln.envp
	if envp == nil {
		if envp, err = syscall.SlicePtrFromStrings(ln.env); err != nil {
			return 0, -1, 0, err
		}
	}
	c.argv, c.envp = unsafe.Pointer(&argv[0]), unsafe.Pointer(&envp[0])
	if ln.dir != "" {
		if c.dir, err = syscall.BytePtrFromString(ln.dir); err != nil {
			return 0, -1, 0, err
		}
	}
	cloneflags := ln.cloneflags
	if st != nil {
		top, set, used, errno := st.put(&c.setup, ln.stageAlways)
		if errno != 0 {
			return 0, -1, 0, &startError{op: "staging its descriptors", err: errno}
		}
		if set != nil {
			defer st.release(set, used)
		}
		if top > 0 {
			c.top, cloneflags = top, cloneflags|unix.CLONE_FILES
			if c.execFD >= 0 {
				c.execAt = 3
			}
		}
	}
	pid, pidfd, tid, err = c.start(cloneflags, ln.wantTID, ln.announce)
	runtime.KeepAlive(argv)
	runtime.KeepAlive(envp)
	return pid, pidfd, tid, err
}

// The runner starts children with its own vfork, as syscall.ForkExec does
// but with the sandbox applied by the child to itself between clone and
// exec: Landlock, no_new_privs, the socket filter, the network namespace
// and the loss of root's capabilities then reach the child alone, and no
// thread of assent is ever confined.
//
// The other way, confining a thread of assent and forking from it, costs a
// handoff to that thread per call: measured on a busy 2-core machine, a
// round trip to a locked goroutine took 58 to 115 µs, a confined thread
// thrown away per call about 120 µs, against a budget of 100 µs for the
// whole sandbox. This way costs five system calls in the child.
//
// It is also cheaper than syscall.ForkExec unsandboxed: clone3's
// CLONE_CLEAR_SIGHAND resets the signal handlers in one step where the
// standard child makes some sixty sigaction calls while the parent waits,
// and the child reports a failed exec through the memory it shares with
// the parent rather than through a pipe.

// cloneArgs is struct clone_args as far as version 2 (Linux 5.7).
type cloneArgs struct {
	flags, pidfd, childTID, parentTID, exitSignal uint64
	stack, stackSize, tls, setTID, setTIDSize     uint64
	cgroup                                        uint64
}

// Secure bits that keep a program run as root from getting capabilities.
const (
	secbitNoRoot       = 1 << 0
	secbitNoRootLocked = 1 << 1
)

// child is everything a child does between clone and exec, worked out
// before the fork. Between the two, the child runs on the parent's stack
// with the parent suspended; it may only make system calls and read this,
// and write the two fields that report a failure. It may live on the
// goroutine's stack: the child's frames lie below the one holding it, and
// the addresses the kernel writes to are worked out in forkChild, where
// the stack cannot move.
type child struct {
	setup                // as the launch has it
	path  *byte          // for execve, when execFD is -1
	empty *byte          // "" for execveat
	argv  unsafe.Pointer // **byte
	envp  unsafe.Pointer // **byte
	dir   *byte          // nil: no chdir
	mask  uint64         // the signal mask to restore before exec
	// top is, for a child that shares this process's table at clone (see
	// stage), the descriptors it keeps of it: those below top. 0: the
	// child has a copy of the whole table.
	top    int
	execAt int // the descriptor it executes its program through, or -1

	failStep  uint32 // the step that failed
	failErrno uint32 // and how

	args     cloneArgs
	pidfd    int32  // written by the kernel
	announce *int32 // where the kernel writes the child's pid, or nil
}

// start forks the child, which confines itself and execs, and returns its
// pid and pidfd. With tid it also returns the thread it was forked from;
// with announce, the kernel writes the pid there as it forks the child.
func (c *child) start(cloneflags uintptr, tid bool, announce *int32) (pid, pidfd, forker int, err error) {
	c.pidfd, c.announce = -1, announce
	c.args = cloneArgs{
		flags:      uint64(unix.CLONE_VM|unix.CLONE_VFORK|unix.CLONE_PIDFD|cloneflags) | unix.CLONE_CLEAR_SIGHAND,
		exitSignal: uint64(unix.SIGCHLD),
	}
	if announce != nil {
		c.args.flags |= unix.CLONE_PARENT_SETTID
	}
	// Forking while another goroutine makes a descriptor without
	// close-on-exec would leak it into the child; the standard library's
	// own convention for that is ForkLock.
	syscall.ForkLock.RLock()
	runtime.LockOSThread()
	if tid {
		forker = unix.Gettid()
	}
	// No signal handler may run while the child shares this thread's
	// stack; the child restores the mask before it execs.
	all := ^uint64(0)
	syscall.RawSyscall6(unix.SYS_RT_SIGPROCMASK, unix.SIG_SETMASK, uintptr(unsafe.Pointer(&all)), uintptr(unsafe.Pointer(&c.mask)), 8, 0, 0)
	r, errno := forkChild(c)
	syscall.RawSyscall6(unix.SYS_RT_SIGPROCMASK, unix.SIG_SETMASK, uintptr(unsafe.Pointer(&c.mask)), 0, 8, 0, 0)
	runtime.UnlockOSThread()
	syscall.ForkLock.RUnlock()
	runtime.KeepAlive(c)
	if errno != 0 {
		return 0, -1, 0, &startError{op: "clone3", err: syscall.Errno(errno)}
	}
	pid = int(r)
	if c.failErrno != 0 {
		// The child has exited (the parent resumes only then, or at exec);
		// its number goes with the reap.
		if announce != nil {
			atomic.StoreInt32(announce, 0)
		}
		reapChild(pid)
		if c.pidfd >= 0 {
			unix.Close(int(c.pidfd))
		}
		return 0, -1, 0, &startError{step: c.failStep, err: syscall.Errno(c.failErrno)}
	}
	return pid, int(c.pidfd), forker, nil
}

// forkChild clones; in the parent it returns at once, with the results
// rawClone3 wrote after the parent resumed, so it never runs in a frame
// the child has used. The child goes on to childMain and never returns.
//
// The addresses the kernel writes to are worked out here, as plain
// numbers the kernel takes: c may live on the goroutine's stack, which
// moves when it grows or a collection shrinks it, and no move updates a
// number. Nothing here can move it: the function grows no stack, and with
// every signal blocked the goroutine is not preempted.
//
//go:nosplit
//go:norace
func forkChild(c *child) (pid, errno uintptr) {
	c.args.pidfd = uint64(uintptr(unsafe.Pointer(&c.pidfd)))
	if c.announce != nil {
		c.args.parentTID = uint64(uintptr(unsafe.Pointer(c.announce)))
	}
	pid, errno = rawClone3(uintptr(unsafe.Pointer(&c.args)), unsafe.Sizeof(c.args))
	if errno != 0 || pid != 0 {
		return
	}
	childMain(c)
	return
}

// childMain is the child, from clone to exec: only raw system calls, no
// allocation, no stack growth, no pointer writes.
//
//go:nosplit
//go:norace
func childMain(c *child) {
	var e syscall.Errno
	if c.setsid {
		if _, _, e = syscall.RawSyscall(unix.SYS_SETSID, 0, 0, 0); e != 0 {
			childFail(c, stepSession, e)
		}
	} else if _, _, e = syscall.RawSyscall(unix.SYS_SETPGID, 0, 0, 0); e != 0 {
		childFail(c, stepSession, e)
	}
	if c.netns >= 0 {
		if _, _, e = syscall.RawSyscall(unix.SYS_SETNS, uintptr(c.netns), unix.CLONE_NEWNET, 0); e != 0 {
			childFail(c, stepNetns, e)
		}
	}
	if c.noRoot {
		if _, _, e = syscall.RawSyscall(unix.SYS_PRCTL, unix.PR_SET_SECUREBITS, secbitNoRoot|secbitNoRootLocked, 0); e != 0 {
			childFail(c, stepCapabilities, e)
		}
	}
	if c.nnp {
		if _, _, e = syscall.RawSyscall6(unix.SYS_PRCTL, unix.PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0, 0); e != 0 {
			childFail(c, stepNoNewPrivs, e)
		}
	}
	if c.filter != nil {
		if _, _, e = syscall.RawSyscall(unix.SYS_PRCTL, unix.PR_SET_SECCOMP, unix.SECCOMP_MODE_FILTER, uintptr(unsafe.Pointer(c.filter))); e != 0 {
			childFail(c, stepSeccomp, e)
		}
	}
	if c.rules >= 0 {
		if _, _, e = syscall.RawSyscall(unix.SYS_LANDLOCK_RESTRICT_SELF, uintptr(c.rules), 0, 0); e != 0 {
			childFail(c, stepLandlock, e)
		}
	}
	if c.nofile != nil {
		syscall.RawSyscall6(unix.SYS_PRLIMIT64, 0, unix.RLIMIT_NOFILE, uintptr(unsafe.Pointer(c.nofile)), 0, 0, 0)
	}
	if c.top > 0 {
		if _, _, e = syscall.RawSyscall(unix.SYS_CLOSE_RANGE, uintptr(c.top), ^uintptr(0), unix.CLOSE_RANGE_UNSHARE); e != 0 {
			childFail(c, stepFiles, e)
		}
	}
	for i := 0; i < 3; i++ {
		if _, _, e = syscall.RawSyscall(unix.SYS_DUP3, uintptr(c.files[i]), uintptr(i), 0); e != 0 {
			childFail(c, stepFiles, e)
		}
	}
	if c.top > 0 {
		keep := uintptr(3) // the first descriptor closed
		if c.execFD >= 0 {
			if c.execFD != 3 {
				if _, _, e = syscall.RawSyscall(unix.SYS_DUP3, uintptr(c.execFD), 3, unix.O_CLOEXEC); e != 0 {
					childFail(c, stepFiles, e)
				}
			}
			keep = 4
		}
		if _, _, e = syscall.RawSyscall(unix.SYS_CLOSE_RANGE, keep, ^uintptr(0), 0); e != 0 {
			childFail(c, stepFiles, e)
		}
	}
	if c.dir != nil {
		if _, _, e = syscall.RawSyscall(unix.SYS_CHDIR, uintptr(unsafe.Pointer(c.dir)), 0, 0); e != 0 {
			childFail(c, stepDir, e)
		}
	}
	syscall.RawSyscall6(unix.SYS_RT_SIGPROCMASK, unix.SIG_SETMASK, uintptr(unsafe.Pointer(&c.mask)), 0, 8, 0, 0)
	if c.execAt >= 0 {
		_, _, e = syscall.RawSyscall6(unix.SYS_EXECVEAT, uintptr(c.execAt), uintptr(unsafe.Pointer(c.empty)),
			uintptr(c.argv), uintptr(c.envp), unix.AT_EMPTY_PATH, 0)
	} else {
		_, _, e = syscall.RawSyscall(unix.SYS_EXECVE, uintptr(unsafe.Pointer(c.path)), uintptr(c.argv), uintptr(c.envp))
	}
	childFail(c, stepExec, e)
}

// childFail records why the child could not go on and ends it.
//
//go:nosplit
//go:norace
func childFail(c *child, step uint32, e syscall.Errno) {
	c.failStep, c.failErrno = step, uint32(e)
	for {
		syscall.RawSyscall(unix.SYS_EXIT_GROUP, 253, 0, 0)
	}
}

// rawClone3 is in fork_linux_$GOARCH.s.
func rawClone3(args, size uintptr) (pid, errno uintptr)
