//go:build unix

package journal

import (
	"errors"
	"fmt"
	"os"
	"syscall"
)

// lockFile takes an exclusive lock on the journal for as long as the file
// is open: two writers would interleave records and break the chain.
func lockFile(f *os.File, path string) error {
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		if errors.Is(err, syscall.EWOULDBLOCK) {
			return fmt.Errorf("journal %s is in use by another process", path)
		}
		return fmt.Errorf("lock journal %s: %w", path, err)
	}
	return nil
}
