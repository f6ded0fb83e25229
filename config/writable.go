package config

import (
	"errors"
	"fmt"
	"path/filepath"
	"slices"
)

// WritableRoot is a directory some tool can write below. assent refuses to
// keep its own files there: an agent that could rewrite a tool file, the
// policy, the remembered rules or the journal through a tool could grant
// itself anything or erase its tracks.
type WritableRoot struct {
	// Dir is absolute, with symlinks resolved.
	Dir string
	// Tool is the tool that can write there.
	Tool string
	// Via says how: "path parameter {name}" or "working directory".
	Via string
}

// WritableRoots lists where the config's tools can write, by this rule:
// a tool declared read_only writes nowhere (the operator said so); any
// other tool can write below the roots of each of its path parameters and
// below its working directory (a fixed cwd, the roots of a cwd placeholder
// that is a path, anywhere for a cwd placeholder that is not, and the
// directory assent runs in by default), since a program writes relative
// paths there, and below what its sandbox.write adds. A string parameter
// can hold any path at all; assent cannot tell which strings a program
// treats as paths, so those are not counted: declare path slots as type
// path. These are the very directories each tool's sandbox lets it write
// (Sandbox), computed once at load.
func (c *Config) WritableRoots() []WritableRoot {
	var out []WritableRoot
	for _, t := range c.Tools {
		out = append(out, t.writes...)
	}
	return out
}

// workPlaces lists the directories a tool's calls work in, each with how:
// the roots of its path parameters, then its working directory (see
// WritableRoots). A tool may read there, and write there unless it is
// read_only; only then is Via filled in, since nothing names the places a
// tool only reads. For system_command the working directory is its cwd
// parameter, already counted.
func (t *Tool) workPlaces(m *memo) []WritableRoot {
	n := 1 // the working directory
	for _, p := range t.Params {
		if p.Type == Path {
			n += len(p.roots)
		}
	}
	out := make([]WritableRoot, 0, n)
	add := func(dir, via string) { out = append(out, WritableRoot{Dir: dir, Tool: t.Name, Via: via}) }
	for _, p := range t.Params {
		if p.Type != Path {
			continue
		}
		via := ""
		if !t.ReadOnly {
			via = "path parameter {" + p.Name + "}"
		}
		for _, r := range p.roots {
			add(r, via)
		}
	}
	switch {
	case t.system != nil:
	case t.cwd == nil:
		add(m.realDir(t.workDir), "working directory")
	case t.cwd.fixed():
		add(m.realDir(absFrom(t.workDir, t.cwd.literal())), "working directory")
	default:
		for _, name := range t.cwd.params() {
			if p := t.params[name]; p != nil && p.Type != Path {
				add("/", "working directory from {"+name+"}, which is not a path")
			}
		}
	}
	return out
}

// writePlaces is where a tool whose calls work in places may write: nowhere
// for a read-only tool, else places and its sandbox.write.
func (t *Tool) writePlaces(places []WritableRoot) []WritableRoot {
	if t.ReadOnly {
		return nil
	}
	out := slices.Clip(places)
	for _, dir := range t.sandboxWrite {
		out = append(out, WritableRoot{Dir: dir, Tool: t.Name, Via: "sandbox.write"})
	}
	return out
}

// dirsOf lists the directories of ws, in order.
func dirsOf(ws []WritableRoot) []string {
	out := make([]string, len(ws))
	for i, w := range ws {
		out[i] = w.Dir
	}
	return out
}

// ProtectedFile is one of assent's own files that no tool may be able to
// write: a tool file, the policy file, the remembered-rules file, the
// journal and its key, the token, the runtime file and its directory.
type ProtectedFile struct {
	// What names the file's role for the message ("tool file", "journal").
	What string
	// Path is where it is (relative paths are taken from the process's
	// working directory). The file need not exist yet. A directory is
	// protected with everything in it.
	Path string
}

// CheckProtected refuses, naming both, a protected file that a tool could
// write, and a tool's program that a tool could replace (see WritableRoots
// for where tools write):
//   - a protected file whose path, resolved or as given, lies under a write
//     root, by name or by identity (a directory above it is a root, seen
//     through a bind mount or another name);
//   - a protected directory that holds a write root;
//   - a protected file with more than one name (hard link), wherever the
//     other names are: writing any of them rewrites it. Write roots are
//     searched so the message can name the other name;
//   - a tool's program, a program it runs through find's -exec, and for a
//     "#!" script every interpreter it runs through (interpreterChain: the
//     program "#!/usr/bin/env name" finds on the config's PATH included),
//     when it lies under a write root or has another name under one, unless
//     this process cannot change it (a system program owned by another user
//     in a directory it cannot write): no tool running as this user can
//     change it either. A script naming a relative interpreter is refused,
//     since it would be looked for in each call's working directory.
func (c *Config) CheckProtected(files ...ProtectedFile) error {
	pr := &protection{rs: newRootSet(c.WritableRoots()), pathList: c.pathList, checked: map[string]bool{},
		chains: map[string]answer[[]string]{}}
	for _, f := range files {
		pr.file(f)
	}
	for _, t := range c.Tools {
		for _, prog := range t.Programs() {
			pr.program(t.Name, prog)
		}
	}
	pr.otherNames()
	return errors.Join(pr.errs...)
}

// protection collects what CheckProtected finds.
type protection struct {
	rs       *rootSet
	pathList string                      // the PATH env(1) looks programs up in
	checked  map[string]bool             // program files checked so far, by name
	chains   map[string]answer[[]string] // each program's interpreterChain, read once
	errs     []error
	multi    []multiName // files with several names, to look for the others
}

// multiName is a checked file that has more than one name.
type multiName struct {
	id    fileID
	what  string // role of a protected file, or "" for a program
	tool  string // the tool whose program it is
	path  string
	links uint64
}

func (pr *protection) fail(format string, args ...any) {
	pr.errs = append(pr.errs, fmt.Errorf(format, args...))
}

// file checks one protected file or directory.
func (pr *protection) file(f ProtectedFile) {
	abs, err := filepath.Abs(f.Path)
	if err != nil {
		pr.fail("%s %s: %w", f.What, f.Path, err)
		return
	}
	real, err := resolvePath("/", abs)
	if err != nil {
		pr.fail("%s %s: %w", f.What, f.Path, err)
		return
	}
	for _, name := range slices.Compact([]string{real, abs}) {
		if root := pr.rs.under(name); root != "" {
			pr.fail("%s %s lies under %s, where %s may write, so an agent could rewrite it; "+
				"move the file elsewhere, or narrow the tool (read_only, or path roots and cwd that exclude it)",
				f.What, name, root, pr.rs.writers(root))
			return
		}
	}
	st, fi, ok := statPath(real)
	switch {
	case !ok:
	case fi.IsDir():
		if root := pr.rs.holds(real); root != "" {
			pr.fail("%s %s holds %s, where %s may write, so an agent could write into it; "+
				"narrow the tool (read_only, or path roots and cwd outside it)", f.What, real, root, pr.rs.writers(root))
		}
	case st.links > 1:
		pr.multi = append(pr.multi, multiName{id: st.id, what: f.What, path: real, links: st.links})
	}
}
