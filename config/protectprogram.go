package config

import (
	"os"
	"path/filepath"
	"sort"
)

// Programs lists every program file a tool may run, as resolved at load:
// its argv[0], what it runs through find's -exec, and for system_command
// every allowed program that is installed, in name order. Interpreters of
// scripts are not listed: they are what the programs run, not what assent
// starts.
func (t *Tool) Programs() []string {
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

// program checks one program of a tool and every interpreter it runs
// through, each once per check.
func (pr *protection) program(tool, prog string) {
	chain, err := remember(pr.chains, prog, func() ([]string, error) { return interpreterChain(prog, pr.pathList) })
	for _, p := range append([]string{prog}, chain...) {
		if !pr.checked[p] {
			pr.checked[p] = true
			pr.programFile(tool, p)
		}
	}
	if ri, ok := err.(*relativeInterpreter); ok {
		pr.fail("program %s of tool %q: %v", realDir(ri.script), tool, err)
	}
}

// programFile checks one program file: by its resolved name and, when it
// is reached through a symlink, by the link's name too.
func (pr *protection) programFile(tool, prog string) {
	real, err := filepath.EvalSymlinks(prog)
	if err != nil {
		return // it resolved when the file loaded; running it will say what changed
	}
	st, _, ok := statPath(real)
	names := []string{real}
	if prog != real {
		names = append(names, prog) // the link itself can be retargeted
	}
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
			return
		}
	}
	if ok && st.mine && st.links > 1 {
		pr.multi = append(pr.multi, multiName{id: st.id, tool: tool, path: real, links: st.links})
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
