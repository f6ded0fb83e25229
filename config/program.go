package config

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// ResolveProgram finds the absolute path of a program once, at load time,
// so a later change to PATH or a planted file in the working directory
// cannot change what a tool runs. Only absolute PATH entries are searched:
// a relative entry ("", ".", "bin") would make the program depend on the
// working directory of each call. The console uses it too, when an operator
// edits a command's program.
func ResolveProgram(name, pathList string) (string, error) {
	if strings.Contains(name, "/") {
		if !filepath.IsAbs(name) {
			return "", fmt.Errorf("program %q is a relative path; write an absolute path or a bare name found in PATH", name)
		}
		if err := executable(name); err != nil {
			return "", err
		}
		return filepath.Clean(name), nil
	}
	if name == "" || name == "." || name == ".." {
		return "", fmt.Errorf("program name %q is not a program", name)
	}
	for _, dir := range filepath.SplitList(pathList) {
		if dir == "" || !filepath.IsAbs(dir) {
			continue
		}
		p := filepath.Join(dir, name)
		if executable(p) == nil {
			return p, nil
		}
	}
	return "", fmt.Errorf("program %q is not installed (not found in the absolute entries of PATH)", name)
}

// executable checks that p is a regular file with an execute bit.
func executable(p string) error {
	fi, err := os.Stat(p)
	if err != nil {
		return fmt.Errorf("program %s: %w", p, err)
	}
	if !fi.Mode().IsRegular() || fi.Mode().Perm()&0o111 == 0 {
		return fmt.Errorf("program %s is not an executable file", p)
	}
	return nil
}

// isWrapper reports whether a program, named by its base name, runs other
// programs or shell code given in its arguments. Such a program as argv[0]
// makes a template as open as a shell, so it needs shell: true.
func isWrapper(base string) bool {
	switch base {
	case "sh", "bash", "dash", "zsh", "ksh", "mksh", "ash", "csh", "tcsh", "fish", "busybox", "rbash",
		"env", "xargs", "timeout", "nice", "nohup", "sudo", "su", "doas", "runuser", "setpriv",
		"setsid", "stdbuf", "chroot", "unshare", "nsenter", "ionice", "taskset", "chrt", "prlimit",
		"flock", "parallel", "watch", "script", "strace", "ltrace", "time", "systemd-run", "ssh",
		"eval", "exec", "command", "builtin":
		return true
	}
	return false
}

// wrapperName returns the name under which path is a wrapper, checking both
// the name as written and the file a symlink points to (so /usr/bin/sh ->
// dash and a renamed link to bash are both caught), or "".
func wrapperName(written, path string) string {
	if b := filepath.Base(written); isWrapper(b) {
		return b
	}
	if real, err := filepath.EvalSymlinks(path); err == nil {
		if b := filepath.Base(real); isWrapper(b) {
			return b
		}
	}
	return ""
}

// findExecFlags are the find(1) actions whose next word is a program.
func isFindExec(s string) bool {
	switch s {
	case "-exec", "-execdir", "-ok", "-okdir":
		return true
	}
	return false
}
