package state

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// WriteFile replaces the file at path with data, atomically and durably:
// the bytes go to a new file in the same directory (created with perm),
// which is synced, renamed over path, and the directory synced so that the
// rename itself survives a crash. Readers see the old file or the new one,
// never a mix. The directory is created 0700 when missing.
func WriteFile(path string, data []byte, perm fs.FileMode) error {
	tmp, err := writeTemp(path, data, perm)
	if err != nil {
		return err
	}
	if err := os.Rename(tmp, path); err != nil {
		os.Remove(tmp)
		return fmt.Errorf("writing %s: %w", path, err)
	}
	return syncDir(filepath.Dir(path))
}

// CreateFile creates the file at path holding data, only if no file is
// there yet: the new file is written and synced under another name, then
// linked into place, so a reader never finds it half written and two
// processes creating it at once end with exactly one winner. The loser gets
// an error matching fs.ErrExist and should read the winner's file.
func CreateFile(path string, data []byte, perm fs.FileMode) error {
	tmp, err := writeTemp(path, data, perm)
	if err != nil {
		return err
	}
	defer os.Remove(tmp)
	if err := os.Link(tmp, path); err != nil {
		if errors.Is(err, fs.ErrExist) {
			return err
		}
		return fmt.Errorf("creating %s: %w", path, err)
	}
	return syncDir(filepath.Dir(path))
}

// writeTemp writes data to a new synced file beside path, mode perm, and
// returns its name.
func writeTemp(path string, data []byte, perm fs.FileMode) (string, error) {
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return "", fmt.Errorf("writing %s: %w", path, err)
	}
	f, err := os.CreateTemp(dir, "."+filepath.Base(path)+".tmp-*")
	if err != nil {
		return "", fmt.Errorf("writing %s: %w", path, err)
	}
	// CreateTemp makes the file 0600; Chmod sets perm whatever the umask.
	_, werr := f.Write(data)
	merr := f.Chmod(perm)
	serr := f.Sync()
	cerr := f.Close()
	if err := errors.Join(werr, merr, serr, cerr); err != nil {
		os.Remove(f.Name())
		return "", fmt.Errorf("writing %s: %w", path, err)
	}
	return f.Name(), nil
}

// syncDir makes a rename or link in dir durable.
func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	defer d.Close()
	if err := d.Sync(); err != nil && !errors.Is(err, errors.ErrUnsupported) {
		return fmt.Errorf("syncing directory %s: %w", dir, err)
	}
	return nil
}
