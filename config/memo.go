package config

import (
	"path/filepath"
	"regexp"
	"slices"
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
	roots    map[[2]string]answer[[]string]
	programs map[[2]string]answer[string]
	reasons  map[[2]string]string
	files    map[[2]string]answer[[]string]
	families map[string]string // bare or exact name → reason
	prefixes []familyPrefix
	ids      map[string]answer[exec.Identity]
	paths    map[[2]string]answer[string] // resolvePath's answers
	dirs     map[string]answer[string]    // realDir's answers
	patterns map[string]answer[*regexp.Regexp]
}

// answer is one question's answer, kept.
type answer[V any] struct {
	v   V
	err error
}

// remember returns what f answers for key, asking f only the first time.
func remember[K comparable, V any](m map[K]answer[V], key K, f func() (V, error)) (V, error) {
	a, ok := m[key]
	if !ok {
		a.v, a.err = f()
		m[key] = a
	}
	return a.v, a.err
}

type familyPrefix struct{ prefix, reason string }

func newMemo() *memo {
	m := &memo{roots: map[[2]string]answer[[]string]{}, programs: map[[2]string]answer[string]{},
		reasons: map[[2]string]string{}, files: map[[2]string]answer[[]string]{}, families: map[string]string{},
		ids: map[string]answer[exec.Identity]{}, paths: map[[2]string]answer[string]{},
		dirs: map[string]answer[string]{}, patterns: map[string]answer[*regexp.Regexp]{}}
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

// resolveRoots is resolveRoots, asked once per base and list. Every
// parameter with the same roots shares the answer, which no one writes to
// (clipped, so that an append copies).
func (m *memo) resolveRoots(base string, roots []string) ([]string, error) {
	if m == nil {
		return resolveRoots(base, roots)
	}
	dirs, err := remember(m.roots, [2]string{base, strings.Join(roots, "\x00")},
		func() ([]string, error) { return resolveRoots(base, roots) })
	return slices.Clip(dirs), err
}

// resolveProgram is ResolveProgram, asked once per name and PATH.
func (m *memo) resolveProgram(name, pathList string) (string, error) {
	if m == nil {
		return ResolveProgram(name, pathList)
	}
	return remember(m.programs, [2]string{name, pathList}, func() (string, error) { return ResolveProgram(name, pathList) })
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

// programFiles is programFiles, asked once per program. The answer is
// shared by every tool that runs the program; callers copy it into their
// own sets and never write to it (clipped, so that an append copies).
func (m *memo) programFiles(path, pathList string) []string {
	if m == nil {
		return programFiles(path, pathList)
	}
	files, _ := remember(m.files, [2]string{path, pathList},
		func() ([]string, error) { return programFiles(path, pathList), nil })
	return slices.Clip(files)
}

// identity is exec.IdentityOf with the file's hash, taken once per program.
func (m *memo) identity(path string) (exec.Identity, error) {
	if m == nil {
		return exec.IdentityOf(path, true)
	}
	return remember(m.ids, path, func() (exec.Identity, error) { return exec.IdentityOf(path, true) })
}

// resolvePath is resolvePath, asked once per base and path.
func (m *memo) resolvePath(base, p string) (string, error) {
	if m == nil {
		return resolvePath(base, p)
	}
	return remember(m.paths, [2]string{base, p}, func() (string, error) { return resolvePath(base, p) })
}

// realDir is realDir, asked once per directory.
func (m *memo) realDir(p string) string {
	if m == nil {
		return realDir(p)
	}
	dir, _ := remember(m.dirs, p, func() (string, error) { return realDir(p), nil })
	return dir
}

// pattern compiles a parameter's pattern to match a whole value, once per
// pattern: a compiled expression is safe to share between tools.
func (m *memo) pattern(p string) (*regexp.Regexp, error) {
	if m == nil {
		return compilePattern(p)
	}
	return remember(m.patterns, p, func() (*regexp.Regexp, error) { return compilePattern(p) })
}

func compilePattern(p string) (*regexp.Regexp, error) { return regexp.Compile(`^(?:` + p + `)$`) }
