package config

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/assent-sh/assent/exec"
)

// shellFamily is a group of programs that can run other programs, or code,
// chosen by their arguments or by files they read. A template whose program
// is one of them is as open as a shell: any free-text slot may become code.
type shellFamily struct {
	// reason says why, of the program as "it".
	reason string
	// names are base names without a version ("python" covers python3.12).
	names []string
	// prefixes cover whole families of names ("perl" covers perldoc).
	prefixes []string
}

// shellFamilies is what makes a program shell-class. It is matched by
// capability, not by what a program is usually used for: sed runs shell
// commands through its e command, tar through --to-command, git through
// its config, hooks and aliases.
func shellFamilies() []shellFamily {
	return []shellFamily{
		{reason: "it is a shell: its arguments can be shell code",
			names: []string{"sh", "bash", "dash", "zsh", "ksh", "mksh", "ash", "csh", "tcsh", "fish", "rbash", "yash",
				"pwsh", "eval", "exec", "command", "builtin"}},
		{reason: "it runs the program named in its arguments",
			names: []string{"env", "xargs", "timeout", "nice", "nohup", "sudo", "su", "doas", "runuser", "setpriv",
				"setsid", "stdbuf", "chroot", "unshare", "nsenter", "ionice", "taskset", "chrt", "prlimit", "flock",
				"parallel", "watch", "script", "strace", "ltrace", "time", "systemd-run", "ssh", "pkexec", "sg",
				"newgrp", "capsh", "firejail", "bwrap", "proot", "fakeroot", "faketime", "torsocks", "proxychains",
				"valgrind", "perf", "unbuffer", "rlwrap", "entr", "chpst", "setuidgid", "envdir", "softlimit",
				"start-stop-daemon", "catchsegv", "ld.so"}},
		{reason: "it is an interpreter: its arguments, or the files it reads, are a program",
			names: []string{"awk", "gawk", "mawk", "nawk", "node", "nodejs", "deno", "bun", "tclsh", "wish", "expect",
				"jimsh", "Rscript", "R", "julia", "guile", "racket", "sbcl", "clisp", "ocaml", "ghci", "runghc",
				"runhaskell", "erl", "escript", "elixir", "iex", "java", "jshell", "groovy", "scala", "kotlin", "jruby",
				"jython", "irb", "osascript", "swift", "dotnet", "m4", "dc"},
			prefixes: []string{"python", "ipython", "pypy", "perl", "ruby", "php", "lua"}},
		{reason: "its script runs shell commands through the e command and s///e, and writes files through w",
			names: []string{"sed", "gsed"}},
		{reason: "it runs programs through --to-command and --use-compress-program, and a remote shell for an archive named host:file",
			names: []string{"tar", "gtar", "bsdtar"}},
		{reason: "it runs shell commands from its arguments or the files it reads: vim's +cmd, less's !, man's pager",
			names: []string{"vim", "vi", "nvim", "ex", "view", "rvim", "rview", "vimdiff", "gvim", "ed", "red", "less",
				"more", "most", "pg", "man"},
			prefixes: []string{"emacs"}},
		{reason: "it runs commands from the files it reads: a Makefile, a repository's config, hooks and aliases, package scripts",
			names: []string{"make", "gmake", "bmake", "git", "hg", "svn", "cmake", "ninja", "meson", "scons", "rake",
				"gradle", "mvn", "ant", "npm", "npx", "yarn", "pnpm", "cargo", "go", "pip", "pipx", "pipenv"}},
		{reason: "it runs programs and the command files it reads",
			names: []string{"gdb", "lldb"}},
		{reason: "it runs any of its applets, shells included",
			names: []string{"busybox", "toybox"}},
		{reason: "it runs shell commands through its meta-commands: .shell, \\!",
			names: []string{"sqlite3", "psql", "mysql", "mariadb"}},
		{reason: "it starts the commands it is given: in a terminal, a container, later or on a connection",
			names: []string{"tmux", "screen", "at", "batch", "crontab", "socat", "docker", "podman", "kubectl", "nerdctl"}},
	}
}

// loaderReason is the reason for the dynamic loader, found by its file
// name pattern (ld-linux-x86-64.so.2, /lib/ld-musl-x86_64.so.1).
const loaderReason = "it is the dynamic loader: it runs the program named in its arguments"

// shellReason says why a program is shell-class, or "" when it is not. It
// looks at the name as written and at every name on the way from path
// through its symlinks to the file, so /usr/bin/awk -> /etc/alternatives/awk
// -> /usr/bin/mawk and a renamed link to bash are both caught. path may be
// "" when the program is not resolved. A Load asks its memo instead, which
// builds the families' table once.
func shellReason(written, path string) string { return newMemo().shellReason(written, path) }

// bareName is a program's base name with any version stripped, for matching
// against the families: python3.12, perl5.36.0, gawk-5.1.0 and vim.basic
// name python, perl, gawk and vim.
func bareName(base string) string {
	bare := base
	if i := strings.IndexByte(bare, '.'); i > 0 && bare != "ld.so" {
		bare = bare[:i]
	}
	bare = strings.TrimRight(bare, "0123456789")
	return strings.TrimRight(bare, "-_")
}

// linkChain returns every path a symlink chain from p passes through, the
// file it ends at included.
func linkChain(p string) []string {
	var out []string
	cur := p
	for range exec.MaxSymlinks {
		target, err := os.Readlink(cur)
		if err != nil {
			break
		}
		if !filepath.IsAbs(target) {
			target = filepath.Join(filepath.Dir(cur), target)
		}
		cur = filepath.Clean(target)
		out = append(out, cur)
	}
	if real, err := filepath.EvalSymlinks(p); err == nil {
		out = append(out, real)
	}
	return out
}

// shellClass is the reason a tool is shell-class, as check and the console
// show it: "python3.12 runs other programs or shell code (it is an
// interpreter: …)".
func shellClass(name, why string) string {
	return fmt.Sprintf("%s runs other programs or shell code (%s)", name, why)
}
