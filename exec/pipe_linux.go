//go:build linux

package exec

import (
	"os"
	"syscall"
)

// newPipe returns a pipe for one of a child's output streams as two raw
// descriptors, both blocking and close-on-exec. The runner polls the read
// end before each read, so it never blocks there, and the child's end is
// blocking, as a child expects its stdout to be: no fcntl, no poller
// registration, one system call.
func newPipe() (r, w int, err error) {
	var p [2]int
	if err := syscall.Pipe2(p[:], syscall.O_CLOEXEC); err != nil {
		return -1, -1, os.NewSyscallError("pipe2", err)
	}
	return p[0], p[1], nil
}

// growPipe asks the kernel for a pipe of readSize bytes instead of the
// default 64 KiB. It is an optimisation only: when the kernel refuses (the
// limit in /proc/sys/fs/pipe-max-size, or the user's pipe quota), the
// default stays.
func growPipe(fd int) {
	_, _, _ = syscall.Syscall(syscall.SYS_FCNTL, uintptr(fd), syscall.F_SETPIPE_SZ, readSize)
}
