package config

import (
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
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
// paths there. A string parameter can hold any path at all; assent cannot
// tell which strings a program treats as paths, so those are not counted:
// declare path slots as type path.
func (c *Config) WritableRoots() []WritableRoot {
	var out []WritableRoot
	for _, t := range c.Tools {
		if t.ReadOnly {
			continue
		}
		add := func(dir, via string) {
			if real, err := resolvePath("/", dir); err == nil {
				dir = real
			}
			out = append(out, WritableRoot{Dir: dir, Tool: t.Name, Via: via})
		}
		for _, p := range t.Params {
			if p.Type == Path {
				for _, r := range p.roots {
					add(r, fmt.Sprintf("path parameter {%s}", p.Name))
				}
			}
		}
		switch {
		case t.system != nil:
			// Its cwd is a path parameter, counted above.
		case t.cwd == nil:
			add(t.workDir, "working directory")
		case t.cwd.fixed():
			add(absFrom(t.workDir, t.cwd.literal()), "working directory")
		default:
			for _, name := range t.cwd.params() {
				if p := t.params[name]; p != nil && p.Type != Path {
					add("/", fmt.Sprintf("working directory from {%s}, which is not a path", name))
				}
			}
		}
	}
	return out
}

// ProtectedFile is one of assent's own files that no tool may be able to
// write: a tool file, the policy file, the remembered-rules file or the
// journal.
type ProtectedFile struct {
	// What names the file's role for the message ("tool file", "journal").
	What string
	// Path is where it is (relative paths are taken from the process's
	// working directory). The file need not exist yet.
	Path string
}

// CheckProtected refuses, naming both, every protected file that lies
// under a root some tool may write to (see WritableRoots).
func (c *Config) CheckProtected(files ...ProtectedFile) error {
	roots := c.WritableRoots()
	var errs []error
	for _, f := range files {
		abs, err := filepath.Abs(f.Path)
		if err != nil {
			errs = append(errs, fmt.Errorf("%s %s: %w", f.What, f.Path, err))
			continue
		}
		real, err := resolvePath("/", abs)
		if err != nil {
			errs = append(errs, fmt.Errorf("%s %s: %w", f.What, f.Path, err))
			continue
		}
		var by []string
		var dir string
		for _, r := range roots {
			if within(real, r.Dir) && (dir == "" || dir == r.Dir) {
				dir = r.Dir
				by = append(by, fmt.Sprintf("tool %q (%s)", r.Tool, r.Via))
			}
		}
		if dir == "" {
			continue
		}
		by = slices.Compact(by)
		errs = append(errs, fmt.Errorf("%s %s lies under %s, where %s may write, so an agent could rewrite it; "+
			"move the file elsewhere, or narrow the tool (read_only, or path roots and cwd that exclude it)",
			f.What, real, dir, strings.Join(by, " and ")))
	}
	return errors.Join(errs...)
}
