//go:build linux

package exec

import (
	"bytes"
	"os"
	"runtime"
	"strconv"
	"syscall"

	"golang.org/x/sys/unix"
)

// childNofile returns the open-file limit a child should start with, or
// nil to leave it as it is. At startup Go raises its own soft limit to one
// below the hard limit, and syscall.ForkExec gives children the original
// back, since older programs that select() or close every descriptor up to
// the limit break or crawl with a million. The original is not reachable
// from outside package syscall, so it is read from a child syscall.ForkExec
// starts (forkExecNofile). Where that cannot be done, the parent process's
// limit stands in for it, which is right unless the parent raised its own
// the same way: a Go program such as `go run` (then it and the runner keep
// the raised limit).
func childNofile() *unix.Rlimit {
	var lim unix.Rlimit
	if unix.Getrlimit(unix.RLIMIT_NOFILE, &lim) != nil || lim.Max == 0 || lim.Cur != lim.Max-1 {
		return nil // not raised by Go, or set on purpose since
	}
	soft, ok := forkExecNofile()
	if !ok {
		soft, ok = parentNofile()
	}
	if !ok || soft >= lim.Cur {
		return nil
	}
	return &unix.Rlimit{Cur: soft, Max: lim.Max}
}

// forkExecNofile starts a child as os/exec would, stopped by ptrace at its
// exec before any of its program runs, reads the open-file limit it was
// given, and kills it. The program is this one, which is sure to exist.
// The thread stays locked until the child is reaped: a tracee's tracer is
// the thread that started it.
func forkExecNofile() (uint64, bool) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	p, err := os.StartProcess("/proc/self/exe", []string{"assent-nofile-probe"},
		&os.ProcAttr{Sys: &syscall.SysProcAttr{Ptrace: true}})
	if err != nil {
		return 0, false
	}
	defer func() {
		_ = p.Kill()
		_, _ = p.Wait()
	}()
	return softNofile(p.Pid)
}

// parentNofile reads the soft open-file limit of this process's parent.
func parentNofile() (uint64, bool) { return softNofile(os.Getppid()) }

// softNofile reads the soft open-file limit of process pid.
func softNofile(pid int) (uint64, bool) {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/limits")
	if err != nil {
		return 0, false
	}
	for _, line := range bytes.Split(b, []byte("\n")) {
		if rest, ok := bytes.CutPrefix(line, []byte("Max open files")); ok {
			f := bytes.Fields(rest)
			if len(f) == 0 {
				return 0, false
			}
			n, err := strconv.ParseUint(string(f[0]), 10, 64)
			return n, err == nil
		}
	}
	return 0, false
}
