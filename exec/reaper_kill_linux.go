//go:build linux

package exec

import (
	"os"
	"strconv"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// signalTree sends sig to pid and to every descendant it has now. Each is
// first pinned by a pidfd and checked to still be the child of the process
// it was found under, so a pid reused meanwhile is never signalled.
func signalTree(pid int, sig syscall.Signal) {
	fd, err := unix.PidfdOpen(pid, 0)
	if err != nil {
		return
	}
	_ = unix.PidfdSendSignal(fd, sig, nil, 0)
	unix.Close(fd)
	for _, tid := range threadsOf(pid) {
		for _, c := range childrenOf(pid, tid) {
			if st, err := readProcStat(c); err == nil && st.ppid == pid {
				signalTree(c, sig)
			}
		}
	}
}

// threadsOf lists the threads of process pid.
func threadsOf(pid int) []int {
	ents, err := os.ReadDir("/proc/" + strconv.Itoa(pid) + "/task")
	if err != nil {
		return nil
	}
	out := make([]int, 0, len(ents))
	for _, e := range ents {
		if n, err := strconv.Atoi(e.Name()); err == nil {
			out = append(out, n)
		}
	}
	return out
}

// reapExited reaps the child pid if it has exited, and reports whether it
// had.
func reapExited(pid int) bool {
	for {
		var info unix.Siginfo
		err := unix.Waitid(unix.P_PID, pid, &info, unix.WEXITED|unix.WNOHANG|unix.WALL, nil)
		if err != unix.EINTR {
			return err == nil && info.Signo != 0
		}
	}
}

// reapBy waits until the child pid has exited, at most until deadline, and
// reaps it; it reports whether it did.
func reapBy(pid int, deadline time.Time) bool {
	fd, err := unix.PidfdOpen(pid, 0)
	if err == nil {
		wait := time.Until(deadline).Milliseconds()
		fds := []unix.PollFd{{Fd: int32(fd), Events: unix.POLLIN}}
		for wait > 0 {
			if _, err := unix.Poll(fds, int(wait)); err != unix.EINTR {
				break
			}
			wait = time.Until(deadline).Milliseconds()
		}
		unix.Close(fd)
	}
	var ws syscall.WaitStatus
	got, _ := syscall.Wait4(pid, &ws, syscall.WNOHANG, nil)
	return got == pid
}
