package exec

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// MaxSymlinks is how many symlinks Resolve follows in one path before it
// gives up, as many as the kernel follows before ELOOP.
const MaxSymlinks = 40

// Resolve makes the absolute path p canonical the way a path argument is
// resolved when a call is expanded: every symlink is followed, also in the
// parts that do not exist yet (a dangling link leads to its target, which
// writing through it would create). The runner resolves each path argument
// with it right before start, and config when it expands a call, so that
// the check and the expansion agree.
func Resolve(p string) (string, error) {
	if !filepath.IsAbs(p) {
		return "", fmt.Errorf("path %q is not absolute", p)
	}
	return resolveWithin(filepath.Clean(p), MaxSymlinks)
}

// resolveWithin resolves p with at most hops symlinks left to follow.
func resolveWithin(p string, hops int) (string, error) {
	if hops < 0 {
		return "", errors.New("too many levels of symbolic links")
	}
	real, err := filepath.EvalSymlinks(p)
	if err != nil && strings.HasSuffix(err.Error(), "too many links") {
		// EvalSymlinks says ELOOP in words of its own, and no error to
		// test for.
		return "", errors.New("too many levels of symbolic links")
	}
	if err == nil || !errors.Is(err, fs.ErrNotExist) {
		return real, err
	}
	// Something in p does not exist: resolve its parent, then look at its
	// last part there.
	parent, err := resolveWithin(filepath.Dir(p), hops-1)
	if err != nil {
		return "", err
	}
	full := filepath.Join(parent, filepath.Base(p))
	target, err := os.Readlink(full)
	if err != nil {
		return full, nil // missing, or not a link: it would be created here
	}
	if !filepath.IsAbs(target) {
		target = filepath.Join(parent, target)
	}
	return resolveWithin(filepath.Clean(target), hops-1)
}

// checkPaths resolves every path argument of cmd again and returns why the
// call may not run if one no longer leads where it led when the call was
// shown: a directory swapped for a symlink since approval would otherwise
// take the program outside the roots the operator saw.
func (l *Local) checkPaths(cmd Command) string {
	if l.skipPathCheck {
		return ""
	}
	for _, p := range cmd.Paths {
		now, err := Resolve(p.Given)
		if err != nil {
			return fmt.Sprintf("path %s no longer resolves (%v); it led to %s when the call was shown", p.Given, unwrapPath(err), p.Resolved)
		}
		if now != p.Resolved {
			return fmt.Sprintf("path %s now leads to %s, not to %s as when the call was shown", p.Given, now, p.Resolved)
		}
	}
	return ""
}

// programChanged is why a call whose program file is no longer the one
// that loaded does not run.
func programChanged(path string) string {
	return fmt.Sprintf("program %s changed since the tool file loaded; reload to accept it", path)
}

// hashLimit is the size up to which IdentityOf hashes a program.
const hashLimit = 64 << 20

// IdentityOf records the identity of the file at path, following symlinks,
// for Command.Program: device, inode, size and times, and with withHash the
// SHA-256 of its contents when it is under 64 MiB. A program this process
// may execute but not read (mode 0711) gets no hash. config calls it when
// a tool file loads.
func IdentityOf(path string, withHash bool) (Identity, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return Identity{}, err
	}
	if !fi.Mode().IsRegular() {
		return Identity{}, fmt.Errorf("%s is not a regular file", path)
	}
	id := identityOf(fi)
	if !withHash || fi.Size() >= hashLimit {
		return id, nil
	}
	sum, err := hashFile(path, id)
	if errors.Is(err, fs.ErrPermission) {
		return id, nil
	}
	id.SHA256 = sum
	return id, err
}
