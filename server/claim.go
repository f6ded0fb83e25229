package server

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
)

// DefaultConsoleName is the first console's name; later ones are
// "console-2", "console-3" and so on.
const DefaultConsoleName = "console"

// maxConsoles bounds the names tried when none is given.
const maxConsoles = 32

// maxSocketPath is the longest socket path every supported system takes
// (the sun_path field is 104 bytes on macOS, 108 on Linux).
const maxSocketPath = 103

var errNameInUse = errors.New("name in use")

// claim is a console name held by this process: NAME.lock, locked for as
// long as the process runs, makes NAME.sock and NAME.json this process's
// to create and remove. Files of another console are never touched: its
// lock is held, so its name is skipped.
type claim struct {
	dir, name string
	lock      *os.File
}

// claimName takes name in dir, or with name "" the first free default.
func claimName(dir, name string) (*claim, error) {
	if name != "" {
		if err := CheckConsoleName(name); err != nil {
			return nil, err
		}
		c, err := tryClaim(dir, name)
		if errors.Is(err, errNameInUse) {
			return nil, fmt.Errorf("a console named %q is already running%s; give this one another name with --console NAME",
				name, runningPID(dir, name))
		}
		return c, err
	}
	for i := 1; i <= maxConsoles; i++ {
		n := DefaultConsoleName
		if i > 1 {
			n += "-" + strconv.Itoa(i)
		}
		c, err := tryClaim(dir, n)
		if !errors.Is(err, errNameInUse) {
			return c, err
		}
	}
	return nil, fmt.Errorf("%d consoles are already running in %s; name this one with --console NAME", maxConsoles, dir)
}

// tryClaim locks NAME.lock. The lock file is removed when a console ends,
// so a lock taken on a file that was removed (or replaced) meanwhile is a
// lock on nothing: the path must still name the locked file.
func tryClaim(dir, name string) (*claim, error) {
	c := &claim{dir: dir, name: name}
	if len(c.path(".sock")) > maxSocketPath {
		return nil, fmt.Errorf("the socket path %s is longer than %d bytes; use a shorter --console name", c.path(".sock"), maxSocketPath)
	}
	for range 3 {
		f, err := os.OpenFile(c.path(".lock"), os.O_RDWR|os.O_CREATE|openNoFollow, 0o600)
		if err != nil {
			return nil, fmt.Errorf("console %q: %w", name, err)
		}
		if err := lockFile(f); err != nil {
			f.Close()
			return nil, err
		}
		held, herr := f.Stat()
		now, nerr := os.Lstat(c.path(".lock"))
		if herr == nil && nerr == nil && os.SameFile(held, now) {
			c.lock = f
			return c, nil
		}
		f.Close()
	}
	return nil, fmt.Errorf("console %q: its lock file keeps changing; is another assent starting?", name)
}

// path is the name's file with the suffix.
func (c *claim) path(suffix string) string { return filepath.Join(c.dir, c.name+suffix) }

// release removes the name's files, the lock last, while the lock is
// still held.
func (c *claim) release() error {
	var errs []error
	for _, suffix := range []string{".sock", ".json", ".lock"} {
		if err := os.Remove(c.path(suffix)); err != nil && !errors.Is(err, os.ErrNotExist) {
			errs = append(errs, err)
		}
	}
	return errors.Join(append(errs, c.lock.Close())...)
}

// runningPID says which process holds a name, as its runtime file claims
// (for the message only).
func runningPID(dir, name string) string {
	rt, err := ReadRuntime(filepath.Join(dir, name+".json"))
	if err != nil || rt.PID <= 0 {
		return ""
	}
	return " (pid " + strconv.Itoa(rt.PID) + ")"
}

// CheckConsoleName refuses a console name that cannot be a file name in
// the runtime directory: 1 to 64 letters, digits, '.', '_' or '-', not
// starting with '.' or '-'.
func CheckConsoleName(name string) error {
	if name == "" || len(name) > 64 {
		return fmt.Errorf("console name %q: 1 to 64 characters", name)
	}
	for i, r := range name {
		ok := r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '_' ||
			(i > 0 && (r == '.' || r == '-'))
		if !ok {
			return fmt.Errorf("console name %q: only letters, digits, '_', and '.' or '-' after the first character", name)
		}
	}
	return nil
}
