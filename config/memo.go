package config

import (
	"path/filepath"
	"regexp"
	"strings"

	"github.com/assent-sh/assent/exec"
)

// memo remembers, for the length of one Load, the answers the file system
// gives about roots and programs. A tool file of many tools names the
// same roots and programs again and again ("." and grep, say); asking once
// took loading 200 tools from 0.2 ms a tool to a fraction of that. The file
// system is read once per question, as if at one moment: a Load is a
// snapshot, and a call's own path values are resolved when it is made, never
// from here.
type memo struct {
	roots    map[[2]string]memoRoots
	programs map[[2]string]memoProgram
	reasons  map[[2]string]string
	files    map[[2]string][]string
	families map[string]string // bare or exact name → reason
	prefixes []familyPrefix
	ids      map[string]memoIdentity
	paths    map[[2]string]memoProgram // resolvePath's answers
	dirs     map[string]string         // realDir's answers
	patterns map[string]memoPattern
}

type memoPattern struct {
	re  *regexp.Regexp
	err error
}

type memoIdentity struct {
	id  exec.Identity
	err error
}

type memoRoots struct {
	dirs []string
	err  error
}

type memoProgram struct {
	path string
	err  error
}

type familyPrefix struct{ prefix, reason string }

func newMemo() *memo {
	m := &memo{roots: map[[2]string]memoRoots{}, programs: map[[2]string]memoProgram{},
		reasons: map[[2]string]string{}, files: map[[2]string][]string{}, families: map[string]string{},
		ids: map[string]memoIdentity{}, paths: map[[2]string]memoProgram{}, dirs: map[string]string{},
		patterns: map[string]memoPattern{}}
	for _, f := range shellFamilies() {
		for _, n := range f.names {
			m.families[n] = f.reason
		}
		for _, p := range f.prefixes {
			m.prefixes = append(m.prefixes, familyPrefix{p, f.reason})
		}
	}
	return m
}

// resolveRoots is resolveRoots, asked once per base and list.
func (m *memo) resolveRoots(base string, roots []string) ([]string, error) {
	if m == nil {
		return resolveRoots(base, roots)
	}
	key := [2]string{base, strings.Join(roots, "\x00")}
	r, ok := m.roots[key]
	if !ok {
		r.dirs, r.err = resolveRoots(base, roots)
		m.roots[key] = r
	}
	return append([]string(nil), r.dirs...), r.err
}

// resolveProgram is ResolveProgram, asked once per name and PATH.
func (m *memo) resolveProgram(name, pathList string) (string, error) {
	if m == nil {
		return ResolveProgram(name, pathList)
	}
	key := [2]string{name, pathList}
	p, ok := m.programs[key]
	if !ok {
		p.path, p.err = ResolveProgram(name, pathList)
		m.programs[key] = p
	}
	return p.path, p.err
}

// shellReason is shellReason, with the families looked up in a table.
func (m *memo) shellReason(written, path string) string {
	if m == nil {
		return shellReason(written, path)
	}
	key := [2]string{written, path}
	r, ok := m.reasons[key]
	if !ok {
		names := []string{filepath.Base(written)}
		if path != "" {
			names = append(names, linkChain(path)...)
		}
		for _, n := range names {
			if r = m.familyReason(filepath.Base(n)); r != "" {
				break
			}
		}
		m.reasons[key] = r
	}
	return r
}

// familyReason is familyReason over the table.
func (m *memo) familyReason(base string) string {
	if strings.HasPrefix(base, "ld-") && strings.Contains(base, ".so") {
		return shellClass(base, loaderReason)
	}
	if why, ok := m.families[base]; ok {
		return shellClass(base, why)
	}
	if why, ok := m.families[bareName(base)]; ok {
		return shellClass(base, why)
	}
	for _, p := range m.prefixes {
		if strings.HasPrefix(base, p.prefix) {
			return shellClass(base, p.reason)
		}
	}
	return ""
}

// programFiles is programFiles, asked once per program.
func (m *memo) programFiles(path, pathList string) []string {
	if m == nil {
		return programFiles(path, pathList)
	}
	key := [2]string{path, pathList}
	f, ok := m.files[key]
	if !ok {
		f = programFiles(path, pathList)
		m.files[key] = f
	}
	return append([]string(nil), f...)
}

// identity is exec.IdentityOf with the file's hash, taken once per program.
func (m *memo) identity(path string) (exec.Identity, error) {
	if m == nil {
		return exec.IdentityOf(path, true)
	}
	i, ok := m.ids[path]
	if !ok {
		i.id, i.err = exec.IdentityOf(path, true)
		m.ids[path] = i
	}
	return i.id, i.err
}

// resolvePath is resolvePath, asked once per base and path.
func (m *memo) resolvePath(base, p string) (string, error) {
	if m == nil {
		return resolvePath(base, p)
	}
	key := [2]string{base, p}
	r, ok := m.paths[key]
	if !ok {
		r.path, r.err = resolvePath(base, p)
		m.paths[key] = r
	}
	return r.path, r.err
}

// realDir is realDir, asked once per directory.
func (m *memo) realDir(p string) string {
	if m == nil {
		return realDir(p)
	}
	r, ok := m.dirs[p]
	if !ok {
		r = realDir(p)
		m.dirs[p] = r
	}
	return r
}

// pattern compiles a parameter's pattern to match a whole value, once per
// pattern: a compiled expression is safe to share between tools.
func (m *memo) pattern(p string) (*regexp.Regexp, error) {
	if m == nil {
		return compilePattern(p)
	}
	c, ok := m.patterns[p]
	if !ok {
		c.re, c.err = compilePattern(p)
		m.patterns[p] = c
	}
	return c.re, c.err
}

func compilePattern(p string) (*regexp.Regexp, error) { return regexp.Compile(`^(?:` + p + `)$`) }
