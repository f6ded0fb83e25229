//go:build unix

package state

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"syscall"
)

// RuntimeDir returns the per-user directory that the console's socket and
// runtime file live in, creating it when needed. It is found from the uid
// alone, never from the environment, so a console started with
// XDG_RUNTIME_DIR set and a relay started by an agent that passes almost
// no variables find the same place: /run/user/UID/assent when /run/user/UID
// exists and is this user's, else /tmp/assent-UID. Either way the directory
// is verified before use: a directory (not a symlink), owned by this uid,
// with no access for group or others. On a shared /tmp another user could
// create /tmp/assent-UID first; that is refused, never trusted.
func RuntimeDir() (string, error) {
	return runtimeDir("/run/user", "/tmp", os.Getuid())
}

// runtimeDir is RuntimeDir with its bases given, for tests. The fallback
// is /tmp itself rather than os.TempDir, which reads $TMPDIR: the rule
// must not depend on the environment.
func runtimeDir(runUser, tmp string, uid int) (string, error) {
	base := filepath.Join(runUser, strconv.Itoa(uid))
	if ownedDir(base, uid) {
		dir := filepath.Join(base, appName)
		return dir, PrivateDir(dir)
	}
	dir := filepath.Join(tmp, appName+"-"+strconv.Itoa(uid))
	return dir, PrivateDir(dir)
}

// ownedDir reports whether dir is a real directory owned by uid.
func ownedDir(dir string, uid int) bool {
	fi, err := os.Lstat(dir)
	if err != nil || !fi.IsDir() {
		return false
	}
	owner, ok := Owner(fi)
	return ok && owner == uid
}

// Owner returns the uid that owns the file fi describes.
func Owner(fi fs.FileInfo) (uid int, ok bool) {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return -1, false
	}
	return int(st.Uid), true
}

// PrivateDir creates dir with mode 0700 when it is missing, then checks
// that it is a directory and not a symlink, owned by this process's uid,
// with no permissions for group or others. Whatever assent puts there is
// then reachable by this user alone.
func PrivateDir(dir string) error {
	if err := os.Mkdir(dir, 0o700); err != nil && !errors.Is(err, fs.ErrExist) {
		return fmt.Errorf("directory %s: %w", dir, err)
	}
	return CheckPrivateDir(dir)
}

// CheckPrivateDir checks dir as PrivateDir does, without creating it.
func CheckPrivateDir(dir string) error {
	fi, err := os.Lstat(dir)
	if err != nil {
		return fmt.Errorf("directory %s: %w", dir, err)
	}
	switch {
	case fi.Mode()&fs.ModeSymlink != 0:
		return fmt.Errorf("%s is a symlink; assent keeps its private files only in a real directory", dir)
	case !fi.IsDir():
		return fmt.Errorf("%s is not a directory", dir)
	}
	owner, ok := Owner(fi)
	if !ok {
		return fmt.Errorf("directory %s: cannot read its owner", dir)
	}
	if uid := os.Getuid(); owner != uid {
		return fmt.Errorf("directory %s belongs to uid %d, not to this user (uid %d): someone else created it; remove it", dir, owner, uid)
	}
	if perm := fi.Mode().Perm(); perm&0o077 != 0 {
		return fmt.Errorf("directory %s may be used by group or others (mode %#o): run chmod 700 on it", dir, perm)
	}
	return nil
}
