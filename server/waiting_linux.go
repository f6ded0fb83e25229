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
	rc, ok := descriptorOf(in)
	if !ok {
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

// descriptorOf returns the descriptor behind a reader or writer (an
// *os.File, a net.Conn), if it has one.
func descriptorOf(v any) (syscall.RawConn, bool) {
	sc, ok := v.(syscall.Conn)
	if !ok {
		return nil, false
	}
	rc, err := sc.SyscallConn()
	return rc, err == nil
}
