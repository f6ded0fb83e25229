package server

import (
	"io"
	"syscall"

	"golang.org/x/sys/unix"
)

// waitingIn returns a check of whether in has bytes waiting in the
// kernel, unread: a pipe's or a socket's FIONREAD (TIOCINQ). For a reader with no
// descriptor it returns nil, and every request hands the reading on at
// once.
func waitingIn(in io.Reader) func() bool {
	sc, ok := in.(syscall.Conn)
	if !ok {
		return nil
	}
	rc, err := sc.SyscallConn()
	if err != nil {
		return nil
	}
	return func() bool {
		var n int
		var ioctlErr error
		err := rc.Control(func(fd uintptr) { n, ioctlErr = unix.IoctlGetInt(int(fd), unix.TIOCINQ) })
		// Not knowing counts as waiting: the reading is handed on at once.
		return err != nil || ioctlErr != nil || n > 0
	}
}
