//go:build linux && !amd64 && !arm64

package exec

import "errors"

// rawForkArch says this architecture has no fork of the runner's own: it
// starts children with syscall.ForkExec and cannot sandbox them.
const rawForkArch = false

// rawStart is not available here.
func rawStart(*launch, *stage) (pid, pidfd, tid int, err error) {
	return 0, -1, 0, errors.New("the runner has no fork of its own on this architecture")
}
