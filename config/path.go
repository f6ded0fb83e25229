package config

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/assent-sh/assent/exec"
)

// resolvePath makes p absolute against base and resolves every symlink in
// it, as exec.Resolve does (in parts that do not exist yet too: a dangling
// symlink is followed to its target, because writing through it would
// create the target). The result is what the program receives, so the
// check and the use see the same path, and exec checks it again right
// before start.
func resolvePath(base, p string) (string, error) {
	if !filepath.IsAbs(p) {
		p = filepath.Join(base, p)
	}
	r, err := exec.Resolve(p)
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return "", fmt.Errorf("%s: %v", pe.Path, pe.Err)
	}
	return r, err
}

// kernelTree returns the kernel's pseudo-file system p lies in (/proc,
// /sys or /dev), or "". Reading there exposes what no project file does:
// /proc/self/environ is assent's environment, tokens included, and
// /dev/stdin or /proc/self/fd its open files. A root that lies there
// itself, such as /dev/shm, says the operator meant it.
func kernelTree(p string) string {
	for _, k := range []string{"/proc", "/sys", "/dev"} {
		if within(p, k) {
			return k
		}
	}
	return ""
}

// within reports whether the absolute, clean path p is root or lies below
// it, comparing whole path components: /srv/app does not contain
// /srv/app-evil.
func within(p, root string) bool {
	if root == "/" {
		return true
	}
	// The separator is compared apart: root+"/" was an allocation, and
	// every tool's sandbox asks this of every pair of its paths.
	return p == root || len(p) > len(root) && p[len(root)] == filepath.Separator && strings.HasPrefix(p, root)
}

// resolveRoots turns configured roots into absolute, symlink-free
// directories. Roots must exist: a root that appears later could be a
// symlink planted to widen it.
func resolveRoots(base string, roots []string) ([]string, error) {
	out := make([]string, 0, len(roots))
	for _, r := range roots {
		if r == "" {
			return nil, errors.New("an empty root; write \".\" for the directory assent runs in")
		}
		if !filepath.IsAbs(r) {
			r = filepath.Join(base, r)
		}
		real, err := filepath.EvalSymlinks(filepath.Clean(r))
		if err != nil {
			return nil, fmt.Errorf("root %s: %w", r, unwrapPathError(err))
		}
		fi, err := os.Stat(real)
		if err != nil {
			return nil, fmt.Errorf("root %s: %w", r, unwrapPathError(err))
		}
		if !fi.IsDir() {
			return nil, fmt.Errorf("root %s is not a directory", r)
		}
		out = append(out, real)
	}
	return out, nil
}

func unwrapPathError(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// givenPaths returns each path in a checked value v as it was named, made
// absolute against base but with no symlink resolved: what exec resolves
// again right before start, to see it still leads where it did.
func givenPaths(v any, base string) []string {
	var out []string
	switch x := v.(type) {
	case string:
		out = append(out, absFrom(base, x))
	case []string:
		for _, s := range x {
			out = append(out, absFrom(base, s))
		}
	case []any:
		for _, it := range x {
			if s, ok := it.(string); ok {
				out = append(out, absFrom(base, s))
			}
		}
	}
	return out
}
