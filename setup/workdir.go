package setup

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// systemDirs are the top-level directories that belong to the system:
// assent's default tools must never take one (or anything below it) as the
// root they read, and their policy approves reads there without asking.
func systemDirs() []string {
	return []string{"/bin", "/boot", "/dev", "/etc", "/lib", "/lib32", "/lib64", "/libx32",
		"/proc", "/run", "/sbin", "/sys", "/usr", "/var"}
}

// checkWorkDir refuses a working directory that is too broad a root for
// tools whose paths are relative to it and that the operator did not write
// for this place: the embedded pack and the config directory's files, which
// read "." and are approved by the default policy. Run from / or from the
// home directory they would hand an agent every file (a token, an SSH key,
// /proc/self/environ) without a prompt.
func checkWorkDir(dir string) error {
	dir = realPath(dir)
	what := ""
	// Both sides resolved: a home reached through a symlink (/home ->
	// /var/home, say) is the same directory as the one assent runs in.
	if home, err := os.UserHomeDir(); err == nil && home != "" && realPath(home) == dir {
		what = "your home directory"
	}
	if dir == "/" {
		what = "the root of the file system"
	}
	for _, sys := range systemDirs() {
		if dir == sys || strings.HasPrefix(dir, sys+"/") {
			what = "a system directory"
		}
	}
	if what == "" {
		return nil
	}
	return fmt.Errorf("assent was started in %s (%s), which its default tools would take as the root they may read: "+
		"cd into a project directory first, or pass --tools with tool files written for this place", dir, what)
}

// realPath is p cleaned, with its symlinks resolved when it can be.
func realPath(p string) string {
	p = filepath.Clean(p)
	if real, err := filepath.EvalSymlinks(p); err == nil {
		return real
	}
	return p
}
