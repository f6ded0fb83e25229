package config

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// fakeBin makes a directory of executables with the given names (each a
// tiny script) and symlinks (name -> target), and options that search it.
func fakeBin(t *testing.T, names []string, links map[string]string) Options {
	t.Helper()
	opts := testOptions(t)
	bin := filepath.Join(opts.WorkDir, "bin")
	if err := os.Mkdir(bin, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, n := range names {
		if err := os.WriteFile(filepath.Join(bin, n), []byte("#!/bin/sh\nexit 0\n"), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for name, target := range links {
		if err := os.Symlink(target, filepath.Join(bin, name)); err != nil {
			t.Fatal(err)
		}
	}
	opts.PATH = bin
	return opts
}

// TestShellClass_EveryFamilyNeedsShell loads a read-only tool with a
// free-text slot on each program that runs programs: none loads without
// "shell": true (so none can be approved by a rule), and with it the tool
// says why it is shell-class.
func TestShellClass_EveryFamilyNeedsShell(t *testing.T) {
	programs := []string{
		"awk", "gawk", "mawk", "nawk", "gawk-5.1.0", "perl", "perl5.36.0", "perldoc", "python", "python3",
		"python3.12", "python2.7", "pypy3", "ipython3", "ruby", "ruby3.1", "node", "nodejs", "php", "php8.2",
		"lua", "lua5.4", "luajit", "sed", "tar", "git", "make", "vim", "vi", "nvim", "ex", "vim.basic", "less",
		"more", "man", "gdb", "busybox", "ld-linux-x86-64.so.2", "ld-2.31.so", "ld-musl-x86_64.so.1",
		"tclsh", "tclsh8.6", "Rscript", "julia", "deno", "bun", "emacs", "emacs-29.1", "m4", "sqlite3",
		"tmux", "socat", "docker", "npm", "bash5.2", "env", "xargs",
	}
	opts := fakeBin(t, programs, map[string]string{"innocent": "python3.12", "editor": "vim.basic", "alt": "innocent"})
	for _, prog := range append(programs, "innocent", "editor", "alt") {
		tool := fmt.Sprintf(`{"name": "t", "command": "%s -- {text}", "read_only": true}`, prog)
		_, err := load(t, opts, "t.json", "["+tool+"]")
		if err == nil || !strings.Contains(err.Error(), `must say "shell": true`) {
			t.Errorf("%s without shell: %v, want a refusal", prog, err)
			continue
		}
		c, err := load(t, opts, "t.json", "["+strings.Replace(tool, `"read_only"`, `"shell": true, "read_only"`, 1)+"]")
		if err != nil {
			t.Errorf("%s with shell: %v", prog, err)
			continue
		}
		if r := c.Tools[0].ShellReason; !strings.Contains(r, "runs other programs or shell code (") {
			t.Errorf("%s: ShellReason %q", prog, r)
		}
	}
}

func TestShellClass_ReasonNamesTheProgram(t *testing.T) {
	opts := fakeBin(t, []string{"python3.12", "cat"}, map[string]string{"py": "python3.12"})
	c := mustLoad(t, opts, "t.json", `[
	  {"name": "py", "command": "py -c {code}", "shell": true},
	  {"name": "declared", "command": "cat -- {f}", "shell": true},
	  {"name": "plain", "command": "cat -- {f}"},
	  {"name": "find", "command": ["/usr/bin/find", ".", "-exec", "{prog}", "{}", ";"], "shell": true}
	]`)
	want := map[string]string{
		"py":       "python3.12 runs other programs or shell code (it is an interpreter",
		"declared": `the tool says "shell": true`,
		"plain":    "",
		"find":     "find -exec runs a program chosen by a placeholder, {prog}",
	}
	for name, w := range want {
		got := c.Tool(name).ShellReason
		if w == "" && got != "" || !strings.Contains(got, w) {
			t.Errorf("%s: ShellReason %q, want %q", name, got, w)
		}
	}
}

func TestShellClass_OrdinaryProgramsAreNot(t *testing.T) {
	for _, name := range []string{"ls", "cat", "grep", "date", "sort", "wc", "head", "uname", "lessecho", "gitk",
		"makedepend", "pylint", "perf-report", "at-spi", "editor", "seq", "tr"} {
		if r := newMemo().familyReason(name); r != "" {
			t.Errorf("familyReason(%q) = %q, want none", name, r)
		}
	}
}
