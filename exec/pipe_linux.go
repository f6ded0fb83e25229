//go:build linux

package exec

import (
	"os"
	"syscall"
)

// growPipe asks the kernel for a pipe of readSize bytes instead of the
// default 64 KiB, so a flooding child is drained in a quarter of the
// wakeups. It is an optimisation only: when the kernel refuses (the limit in
// /proc/sys/fs/pipe-max-size, or the user's pipe quota), the default stays.
// It works on the read end through SyscallConn, because Fd would switch the
// end the runner polls to blocking mode.
func growPipe(f *os.File) {
	rc, err := f.SyscallConn()
	if err != nil {
		return
	}
	_ = rc.Control(func(fd uintptr) {
		_, _, _ = syscall.Syscall(syscall.SYS_FCNTL, fd, syscall.F_SETPIPE_SZ, readSize)
	})
}
