//go:build linux || darwin

package server

import (
	"errors"
	"os"
	"syscall"
)

// openNoFollow refuses to open a lock file through a symlink.
const openNoFollow = syscall.O_NOFOLLOW

// lockFile takes an exclusive lock on f without waiting; errNameInUse
// means another process holds it. The kernel releases it when that
// process ends, however it ends, so a crashed console never keeps its
// name.
func lockFile(f *os.File) error {
	err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
	if errors.Is(err, syscall.EWOULDBLOCK) {
		return errNameInUse
	}
	return err
}
