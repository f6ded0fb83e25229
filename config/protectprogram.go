package config

import (
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
)

// maxScriptDepth bounds how many "#!" interpreters deep the check follows
// a program, as the kernel bounds how many it will run through.
const maxScriptDepth = 4

// runnablePrograms lists every program a tool may run: its argv[0], what it runs
// through find's -exec, and for system_command every allowed program.
func (t *Tool) runnablePrograms() []string {
	var out []string
	if t.Program != "" {
		out = append(out, t.Program)
	}
	out = append(out, t.SecondPrograms...)
	if t.system != nil {
		names := make([]string, 0, len(t.system.programs))
		for name := range t.system.programs {
			names = append(names, name)
		}
		sort.Strings(names)
		for _, name := range names {
			out = append(out, t.system.programs[name])
		}
	}
	return out
}

// program checks one program of a tool, and the interpreter it names if it
// is a script. depth counts the interpreters followed so far.
func (pr *protection) program(tool, prog string, depth int) {
	real, err := filepath.EvalSymlinks(prog)
	if err != nil {
		return // it resolved when the file loaded; running it will say what changed
	}
	st, _, ok := statPath(real)
	names := []string{real}
	if prog != real {
		names = append(names, prog) // the link itself can be retargeted
	}
	refused := false
	for _, name := range names {
		if ok && name == real && !st.mine {
			continue
		}
		if name != real && !linkIsMine(name) {
			continue
		}
		if root := pr.rs.under(name); root != "" {
			pr.fail("program %s of tool %q lies under %s, where %s may write, so an agent could replace it; "+
				"move the program out of their reach, or narrow those tools (read_only, or path roots and cwd that exclude it)",
				name, tool, root, pr.rs.writers(root))
			refused = true
			break
		}
	}
	if !refused && ok && st.mine && st.links > 1 {
		pr.multi = append(pr.multi, multiName{id: st.id, tool: tool, path: real, links: st.links})
	}
	interp, err := scriptInterpreter(real)
	switch {
	case err != nil:
		pr.fail("program %s of tool %q: %v", real, tool, err)
	case interp != "" && depth < maxScriptDepth:
		pr.program(tool, interp, depth+1)
	}
}

// linkIsMine reports whether this process could retarget the symlink at
// path: it owns the link or may write its directory.
func linkIsMine(path string) bool {
	fi, err := os.Lstat(path)
	if err != nil {
		return false
	}
	st, ok := statOf(path, fi)
	return !ok || st.mine
}

// scriptInterpreter returns the program a "#!" script names on its first line,
// or "" for a file that is not such a script. A relative interpreter is an
// error: the kernel would look for it in each call's working directory.
func scriptInterpreter(path string) (string, error) {
	words := strings.Fields(shebang(path))
	if len(words) == 0 {
		return "", nil
	}
	if !filepath.IsAbs(words[0]) {
		return "", &relativeInterpreter{words[0]}
	}
	return filepath.Clean(words[0]), nil
}

// relativeInterpreter is a script whose "#!" line names a relative path.
type relativeInterpreter struct{ name string }

func (e *relativeInterpreter) Error() string {
	return "its #! line names the interpreter " + strconv.Quote(e.name) + " by a relative path, which the kernel looks up in the working directory of each call; write an absolute path"
}
