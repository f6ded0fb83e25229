package config

import (
	"fmt"
	"path/filepath"
	"slices"
	"sort"
)

// readTemplates reads cwd, env and stdin, the templates besides argv.
func (t *Tool) readTemplates(n *node, fail failFunc) error {
	one := func(field string) (word, string, error) {
		v := n.get(field)
		if v == nil {
			return nil, "", nil
		}
		s, err := readString(v, field)
		if err != nil {
			return nil, "", fail(v, field, "want a string, got %s", v.kind)
		}
		if p := textProblem(s, field == "stdin"); p != "" {
			return nil, "", fail(v, field, "contains %s", p)
		}
		w, err := parseWord(s)
		if err == nil {
			if name, ok := w.listParam(); ok {
				err = fmt.Errorf("list placeholder {%s...} can only fill argv", name)
			}
		}
		if err != nil {
			return nil, "", fail(v, field, "%v", err)
		}
		return w, s, nil
	}
	var err error
	if t.cwd, t.Cwd, err = one("cwd"); err != nil {
		return err
	}
	if t.stdin, t.Stdin, err = one("stdin"); err != nil {
		return err
	}
	if t.cwd != nil && t.cwd.fixed() {
		dir := t.cwd.literal()
		if !filepath.IsAbs(dir) {
			dir = filepath.Join(t.workDir, dir)
		}
		if _, err := resolveRoots(t.workDir, []string{dir}); err != nil {
			return fail(n.get("cwd"), "cwd", "%v", err)
		}
	}
	env := n.get("env")
	if env == nil {
		return nil
	}
	if env.kind != kindObject {
		return fail(env, "env", "want an object of NAME: value, got %s", env.kind)
	}
	for _, m := range env.members {
		k, v := m.key, m.val
		if !isName(k) {
			return fail(v, "env", "%q is not a valid variable name", k)
		}
		s, err := readString(v, "env."+k)
		if err != nil {
			return fail(v, "env."+k, "want a string, got %s", v.kind)
		}
		if p := textProblem(s, false); p != "" {
			return fail(v, "env."+k, "contains %s", p)
		}
		w, err := parseWord(s)
		if err == nil {
			if name, ok := w.listParam(); ok {
				err = fmt.Errorf("list placeholder {%s...} can only fill argv", name)
			}
		}
		if err != nil {
			return fail(v, "env."+k, "%v", err)
		}
		t.env = append(t.env, envWord{k, w})
		t.Env = append(t.Env, EnvVar{k, s})
	}
	sort.Slice(t.env, func(i, j int) bool { return t.env[i].name < t.env[j].name })
	sort.Slice(t.Env, func(i, j int) bool { return t.Env[i].Name < t.Env[j].Name })
	return nil
}

// use records how a placeholder appears in the tool's templates.
type use struct {
	name         string
	list, scalar bool
	argv, cwd    bool
	stdinOnly    bool
}

// uses collects every placeholder and how it is used, in order of first
// appearance. A tool has a few, so a slice finds one as fast as a map
// would, without a map's allocations.
func (t *Tool) uses() []use {
	us := make([]use, 0, len(t.argv)) // room for a placeholder a word, more than most tools have
	note := func(name string, f func(u *use)) {
		i := slices.IndexFunc(us, func(u use) bool { return u.name == name })
		if i < 0 {
			i = len(us)
			us = append(us, use{name: name, stdinOnly: true})
		}
		f(&us[i])
	}
	for _, w := range t.argv {
		for _, p := range w {
			if p.param != "" {
				list := p.list
				note(p.param, func(u *use) { u.argv, u.stdinOnly = true, false; u.list = u.list || list; u.scalar = u.scalar || !list })
			}
		}
	}
	for _, name := range t.cwd.params() {
		note(name, func(u *use) { u.cwd, u.scalar, u.stdinOnly = true, true, false })
	}
	for _, e := range t.env {
		for _, name := range e.value.params() {
			note(name, func(u *use) { u.scalar, u.stdinOnly = true, false })
		}
	}
	for _, name := range t.stdin.params() {
		note(name, func(u *use) { u.scalar = true })
	}
	return us
}
