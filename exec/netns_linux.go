//go:build linux

package exec

import (
	"runtime"

	"golang.org/x/sys/unix"
)

// newEmptyNetns makes a network namespace with nothing in it (a loopback
// interface that is down) and returns a descriptor that keeps it, for the
// children of commands without network to join. One is made per runner and
// shared: making a namespace cost over half a millisecond per call on this
// kind of machine, far more than the whole budget of a call's sandbox,
// while joining one is a single setns in the child. It needs CAP_SYS_ADMIN;
// without it the network is denied by seccomp and Landlock alone.
func newEmptyNetns() (int, error) {
	type result struct {
		fd  int
		err error
	}
	ch := make(chan result)
	go func() {
		runtime.LockOSThread()
		// No UnlockOSThread: the thread, now in the new namespace, ends
		// with this goroutine.
		if err := unix.Unshare(unix.CLONE_NEWNET); err != nil {
			ch <- result{-1, err}
			return
		}
		fd, err := unix.Open("/proc/thread-self/ns/net", unix.O_RDONLY|unix.O_CLOEXEC, 0)
		ch <- result{fd, err}
	}()
	r := <-ch
	return r.fd, r.err
}
