//go:build unix

package journal

import (
	"errors"
	"fmt"
	"os"
	"syscall"
)

// lockExclusive takes f's lock without waiting; held reports that another
// process has it.
func lockExclusive(f *os.File) (held bool, err error) {
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		if errors.Is(err, syscall.EWOULDBLOCK) {
			return true, nil
		}
		return false, fmt.Errorf("lock %s: %w", f.Name(), err)
	}
	return false, nil
}
