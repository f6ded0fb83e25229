//go:build linux

package exec

import (
	"bytes"
	"os"
	"strconv"

	"golang.org/x/sys/unix"
)

// childNofile returns the open-file limit a child should start with, or
// nil to leave it as it is. At startup Go raises its own soft limit to one
// below the hard limit, and syscall.ForkExec gives children the original
// back, since older programs that select() or close every descriptor up to
// the limit break or crawl with a million. The original is not reachable
// from outside package syscall; the parent process still has it, unless it
// was raised the same way (then this process inherited it raised, Go kept
// it, and so does the runner).
func childNofile() *unix.Rlimit {
	var lim unix.Rlimit
	if unix.Getrlimit(unix.RLIMIT_NOFILE, &lim) != nil || lim.Max == 0 || lim.Cur != lim.Max-1 {
		return nil // not raised by Go, or set on purpose since
	}
	soft, ok := parentNofile()
	if !ok || soft >= lim.Cur {
		return nil
	}
	return &unix.Rlimit{Cur: soft, Max: lim.Max}
}

// parentNofile reads the soft open-file limit of this process's parent.
func parentNofile() (uint64, bool) {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(os.Getppid()) + "/limits")
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
