//go:build linux

package exec

import (
	"os"
	"strconv"

	"golang.org/x/sys/unix"
)

// SealInherited marks every descriptor above 2 that this process holds
// close-on-exec. Call it first in main. A descriptor the process inherited
// without the flag would otherwise reach every program it runs wherever a
// child gets a copy of the whole table: os/exec's, and the runner's on a
// kernel that cannot stage (before Linux 5.9), or without its own fork.
// Where the runner stages, its child closes such a descriptor anyway.
func SealInherited() error {
	// close_range's CLOSE_RANGE_CLOEXEC (Linux 5.11) does it in one call.
	if unix.CloseRange(3, ^uint(0), unix.CLOSE_RANGE_CLOEXEC) == nil {
		return nil
	}
	return sealListed()
}

// sealListed is SealInherited by the list in /proc/self/fd, for a kernel
// without CLOSE_RANGE_CLOEXEC.
func sealListed() error {
	ents, err := os.ReadDir("/proc/self/fd")
	if err != nil {
		return err
	}
	for _, e := range ents {
		fd, err := strconv.Atoi(e.Name())
		if err != nil || fd <= 2 {
			continue
		}
		// The directory's own descriptor is among them, closed by now:
		// EBADF is no failure.
		if _, err := unix.FcntlInt(uintptr(fd), unix.F_SETFD, unix.FD_CLOEXEC); err != nil && err != unix.EBADF {
			return os.NewSyscallError("fcntl", err)
		}
	}
	return nil
}
