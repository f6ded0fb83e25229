//go:build linux

package exec

import (
	"runtime"
	"syscall"

	"golang.org/x/sys/unix"
)

// terminateInit carries out SIGTERM for a leader that is PID 1 of its own
// namespace. The kernel delivers a signal to a namespace init only if the
// init handles it (or it is SIGKILL), so the SIGTERM just sent to the group
// reached the leader only if it has a handler; a leader that ignores
// SIGTERM would ignore it anywhere. A leader that leaves SIGTERM at its
// default would have died of it outside a namespace, so the runner carries
// out that default itself, with SIGKILL (which, as the kernel then ends the
// whole namespace, also ends the leader's descendants at once), and reports
// the end as SIGTERM.
func (r *run) terminateInit() {
	bit := uint64(1) << (syscall.SIGTERM - 1)
	caught, err1 := statusMask(r.p.pid, "SigCgt")
	ignored, err2 := statusMask(r.p.pid, "SigIgn")
	if err1 != nil || err2 != nil || (caught|ignored)&bit != 0 {
		return
	}
	r.p.termEmulated.Store(true)
	_ = syscall.Kill(r.p.pid, syscall.SIGKILL)
}

// pidNamespacePermitted reports whether this process may give a child a
// PID namespace of its own. It tries on a thread of its own, which is then
// discarded, since unshare changes the namespace the thread's children go
// to and that must not leak into other runs.
func pidNamespacePermitted() bool {
	ok := make(chan bool)
	go func() {
		runtime.LockOSThread()
		// No UnlockOSThread: the thread ends with this goroutine.
		ok <- unix.Unshare(unix.CLONE_NEWPID) == nil
	}()
	return <-ok
}
