//go:build linux

package exec

import (
	"os"
	"syscall"
	"unsafe"
)

// pPID is waitid's P_PID: wait for the one process named by id.
const pPID = 1

// awaitExit blocks until p has exited but leaves it unreaped (WNOWAIT). While
// the leader is a zombie its pid, and so its process group id, cannot be
// given to another process, which makes the final kill of the group safe
// from hitting a stranger. The caller reaps it afterwards.
func awaitExit(p *os.Process) error {
	var info [128]byte // siginfo_t; its contents are not needed
	for {
		_, _, errno := syscall.Syscall6(syscall.SYS_WAITID, pPID, uintptr(p.Pid),
			uintptr(unsafe.Pointer(&info)), syscall.WEXITED|syscall.WNOWAIT, 0, 0)
		switch errno {
		case 0:
			return nil
		case syscall.EINTR:
			continue
		default:
			return errno
		}
	}
}
