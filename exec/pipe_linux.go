//go:build linux

package exec

import (
	"os"
	"syscall"

	"golang.org/x/sys/unix"
)

// newPipe returns a pipe for one of a child's output streams as two raw
// descriptors, close-on-exec: the read end non-blocking, the child's end
// blocking, as a child expects its stdout to be.
func newPipe() (r, w int, err error) {
	var p [2]int
	if err := syscall.Pipe2(p[:], syscall.O_CLOEXEC|syscall.O_NONBLOCK); err != nil {
		return -1, -1, os.NewSyscallError("pipe2", err)
	}
	// The read end stays non-blocking: another holder of the pipe may take
	// what poll said was there, and a blocking read would then hold the
	// run past its timeout and WaitDelay. The child's end, another open
	// file, blocks as a child expects.
	if err := syscall.SetNonblock(p[1], false); err != nil {
		syscall.Close(p[0])
		syscall.Close(p[1])
		return -1, -1, os.NewSyscallError("fcntl", err)
	}
	if p[0], err = aboveStdio(p[0]); err == nil {
		p[1], err = aboveStdio(p[1])
	}
	if err != nil {
		syscall.Close(p[0])
		syscall.Close(p[1])
		return -1, -1, err
	}
	return p[0], p[1], nil
}

// aboveStdio returns fd moved to 3 or higher when it is 0, 1 or 2 (this
// process runs with a standard stream closed), so that a child putting its
// streams in place never finds one of its sources already there.
func aboveStdio(fd int) (int, error) {
	if fd > 2 {
		return fd, nil
	}
	moved, err := unix.FcntlInt(uintptr(fd), unix.F_DUPFD_CLOEXEC, 3)
	syscall.Close(fd)
	if err != nil {
		return -1, os.NewSyscallError("fcntl", err)
	}
	return moved, nil
}

// growPipe asks the kernel for a pipe of readSize bytes instead of the
// default 64 KiB. It is an optimisation only: when the kernel refuses (the
// limit in /proc/sys/fs/pipe-max-size, or the user's pipe quota), the
// default stays.
func growPipe(fd int) {
	_, _, _ = syscall.Syscall(syscall.SYS_FCNTL, uintptr(fd), syscall.F_SETPIPE_SZ, readSize)
}
