//go:build linux

package exec

import (
	"os"
	"syscall"
)

// newPipe returns a pipe for one of a child's output streams: the read end
// non-blocking and registered with the runtime's poller (so a read deadline
// can cut it off), the write end blocking, as the child expects its stdout
// to be. os.Pipe would make both ends non-blocking and os/exec would then
// switch the child's end back, a dozen system calls on every run where
// four do.
func newPipe() (r, w *os.File, err error) {
	var p [2]int
	if err := syscall.Pipe2(p[:], syscall.O_CLOEXEC); err != nil {
		return nil, nil, os.NewSyscallError("pipe2", err)
	}
	if err := syscall.SetNonblock(p[0], true); err != nil {
		syscall.Close(p[0])
		syscall.Close(p[1])
		return nil, nil, os.NewSyscallError("fcntl", err)
	}
	return os.NewFile(uintptr(p[0]), "|0"), os.NewFile(uintptr(p[1]), "|1"), nil
}

// growPipe asks the kernel for a pipe of readSize bytes instead of the
// default 64 KiB. It is an optimisation only: when the kernel refuses (the
// limit in /proc/sys/fs/pipe-max-size, or the user's pipe quota), the
// default stays. It works through SyscallConn, because Fd would switch the
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
