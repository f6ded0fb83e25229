package setup

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/assent-sh/assent/policy"
	"github.com/assent-sh/assent/state"
)

// RememberedFile is the remembered-rules file at a path, as a policy.Store.
// Whoever can write it can allow anything, so it is created 0600 and a file
// that group or others may write is refused. A missing file holds no rules.
type RememberedFile string

// DefaultRememberedFile is where remembered rules are kept when no file is
// named: remembered.json in the state directory.
func DefaultRememberedFile() (string, error) {
	dir, err := state.Dir()
	if err != nil {
		return "", err
	}
	return filepath.Join(dir, "remembered.json"), nil
}

// Name is the file's path.
func (f RememberedFile) Name() string { return string(f) }

// Load reads the file.
func (f RememberedFile) Load() ([]policy.Rule, error) {
	path := string(f)
	file, err := os.Open(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("remembered-rules file: %w", err)
	}
	defer file.Close()
	info, err := file.Stat()
	if err != nil {
		return nil, fmt.Errorf("remembered-rules file: %w", err)
	}
	if perm := info.Mode().Perm(); perm&0o022 != 0 {
		return nil, fmt.Errorf("remembered-rules file %s may be written by group or others (mode %#o): run chmod 600 on it", path, perm)
	}
	data, err := io.ReadAll(file)
	if err != nil {
		return nil, fmt.Errorf("remembered-rules file %s: %w", path, err)
	}
	return policy.ParseRemembered(path, data)
}

// Save replaces the file's rules, atomically.
func (f RememberedFile) Save(rules []policy.Rule) error {
	data, err := policy.MarshalRemembered(rules)
	if err != nil {
		return err
	}
	return state.WriteFile(string(f), data, 0o600)
}
