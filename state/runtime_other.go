//go:build !unix

package state

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// RuntimeDir returns the per-user directory for the console's runtime
// files: assent inside the user's temporary directory. Ownership cannot
// be checked here as it is on unix.
func RuntimeDir() (string, error) {
	dir := filepath.Join(os.TempDir(), appName)
	return dir, PrivateDir(dir)
}

// PrivateDir creates dir when it is missing and checks that it is a
// directory.
func PrivateDir(dir string) error {
	if err := os.MkdirAll(dir, 0o700); err != nil && !errors.Is(err, fs.ErrExist) {
		return fmt.Errorf("directory %s: %w", dir, err)
	}
	return CheckPrivateDir(dir)
}

// CheckPrivateDir checks that dir is a directory and not a symlink.
func CheckPrivateDir(dir string) error {
	fi, err := os.Lstat(dir)
	if err != nil {
		return fmt.Errorf("directory %s: %w", dir, err)
	}
	if fi.Mode()&fs.ModeSymlink != 0 || !fi.IsDir() {
		return fmt.Errorf("%s is not a real directory", dir)
	}
	return nil
}

// Owner reports no owner: this system's files have none assent can read.
func Owner(fs.FileInfo) (uid int, ok bool) { return -1, false }
