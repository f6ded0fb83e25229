package config

import (
	"cmp"
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

// isFindExec reports the find(1) actions whose next word is a program.
func isFindExec(s string) bool {
	switch s {
	case "-exec", "-execdir", "-ok", "-okdir":
		return true
	}
	return false
}

// checkPrograms resolves argv[0] and any program find runs, and enforces
// shell: true for shell-class programs, recording why in ShellReason.
func (t *Tool) checkPrograms(n *node, opts Options, fail failFunc) error {
	cmd := n.get("command")
	prog := t.argv[0].literal()
	cmdFail := func(format string, args ...any) error { return fail(cmd, "command", format, args...) }
	needShell := func(reason string) error {
		return cmdFail("%s; a tool that runs it must say \"shell\": true (it is then never approved by a rule)", reason)
	}
	if r := opts.memo.shellReason(prog, ""); r != "" && !t.Shell {
		return needShell(r)
	}
	path, err := opts.memo.resolveProgram(prog, opts.PATH)
	if err != nil {
		return cmdFail("%v", err)
	}
	t.Program = path
	t.ShellReason = opts.memo.shellReason(prog, path)
	if t.ShellReason != "" && !t.Shell {
		return needShell(t.ShellReason)
	}
	if filepath.Base(prog) == "find" {
		if err := t.checkFindExec(opts, needShell, cmdFail); err != nil {
			return err
		}
	}
	if t.Shell && t.ShellReason == "" {
		t.ShellReason = "the tool says \"shell\": true"
	}
	return t.pinProgram()
}

// checkFindExec resolves the programs find(1) runs through -exec and its
// kin. One chosen by a placeholder, or one that is itself shell-class,
// makes the tool shell-class.
func (t *Tool) checkFindExec(opts Options, needShell func(string) error, fail func(string, ...any) error) error {
	for i := 1; i+1 < len(t.argv); i++ {
		if !t.argv[i].fixed() || !isFindExec(t.argv[i].literal()) {
			continue
		}
		action, next := t.argv[i].literal(), t.argv[i+1]
		if !next.fixed() {
			reason := fmt.Sprintf("find %s runs a program chosen by a placeholder, {%s}", action, next.params()[0])
			if !t.Shell {
				return needShell(reason)
			}
			t.ShellReason = cmp.Or(t.ShellReason, reason)
			continue
		}
		p2, err := opts.memo.resolveProgram(next.literal(), opts.PATH)
		if err != nil {
			return fail("find %s: %v", action, err)
		}
		if r := opts.memo.shellReason(next.literal(), p2); r != "" {
			reason := fmt.Sprintf("find %s runs %s, and %s", action, next.literal(), r)
			if !t.Shell {
				return needShell(reason)
			}
			t.ShellReason = cmp.Or(t.ShellReason, reason)
		}
		t.SecondPrograms = append(t.SecondPrograms, p2)
	}
	return nil
}

// pinProgram takes the identity of the tool's program file, once, at load:
// exec compares it right before each start, so a binary swapped or a
// symlink retargeted after load is refused ("reload to accept it").
func (t *Tool) pinProgram() error {
	id, err := t.memo.identity(t.Program)
	if err != nil {
		return fmt.Errorf("program %s: %w", t.Program, err)
	}
	t.ProgramID = id
	return nil
}

// markFindPaths records which argv slots of a find(1) template are starting
// points: find reads its expression from the first word that begins with
// '-', '(', '!' or ',' there, so a value like "!" or "(" in such a slot
// would become part of the expression.
func (t *Tool) markFindPaths() {
	if filepath.Base(t.argv[0].literal()) != "find" {
		return
	}
	t.findPaths = map[int]bool{}
	for i := 1; i < len(t.argv); i++ {
		w := t.argv[i]
		if w.fixed() {
			if s := w.literal(); s != "" && strings.ContainsRune("-(!),", rune(s[0])) {
				return
			}
			continue
		}
		t.findPaths[i] = true
	}
}
