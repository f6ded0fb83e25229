package config

import (
	"fmt"
	"path/filepath"
	"slices"

	"github.com/assent-sh/assent/exec"
)

// SandboxMode is settings.sandbox: what to do about confining calls.
type SandboxMode string

const (
	// SandboxRequired refuses a call that cannot be confined, saying why.
	SandboxRequired SandboxMode = "required"
	// SandboxBestEffort confines calls where the kernel can and runs the
	// rest unconfined, shown loudly. It is the default.
	SandboxBestEffort SandboxMode = "best-effort"
	// SandboxOff runs every call unconfined.
	SandboxOff SandboxMode = "off"
)

// Sandbox returns what the tool's calls may touch, computed once at load
// from its template, and whether its calls are confined at all (false when
// the tool says "sandbox": false or settings.sandbox is "off"):
//   - Write: nothing for a read-only tool; otherwise the roots of its path
//     parameters, its working directory and sandbox.write: the tool's
//     entries of WritableRoots.
//   - Read: the roots of its path parameters, its working directory,
//     sandbox.read, the program file, any program find -exec runs, and for
//     a #! script every interpreter it runs through (the program
//     "#!/usr/bin/env name" finds included). exec adds the system's own
//     needs.
//   - Network: the tool's "network".
//
// A working directory from a placeholder that is not a path could be
// anywhere, so it makes the set "/" (check warns about it). For
// system_command the sets are those of the call's program.
func (t *Tool) Sandbox() (exec.Sandbox, bool) {
	return cloneSandbox(t.sandbox), t.confined
}

// sandboxFor is the sandbox a call's command carries: nil when unconfined.
func (t *Tool) sandboxFor() *exec.Sandbox {
	if !t.confined {
		return nil
	}
	s := cloneSandbox(t.sandbox)
	return &s
}

func cloneSandbox(s exec.Sandbox) exec.Sandbox {
	return exec.Sandbox{Read: slices.Clone(s.Read), Write: slices.Clone(s.Write), Network: s.Network}
}

// computeSandbox fills the tool's sets from its template; see Sandbox. The
// write set is the tool's entries of WritableRoots.
func (t *Tool) computeSandbox(opts Options, s Settings) {
	places := t.workPlaces(opts.memo)
	t.writes = t.writePlaces(places)
	read := slices.Concat(dirsOf(places), t.sandboxRead, opts.memo.programFiles(t.Program, opts.PATH))
	for _, p := range t.SecondPrograms {
		read = append(read, opts.memo.programFiles(p, opts.PATH)...)
	}
	t.sandbox = exec.Sandbox{Read: tidyPaths(read), Write: tidyPaths(dirsOf(t.writes)), Network: t.Network}
	t.confined = !t.Unconfined && s.SandboxOrDefault() != SandboxOff
}

// realDir resolves a directory's symlinks, keeping it as it is when it
// cannot (it was checked when it was read).
func realDir(p string) string {
	if r, err := filepath.EvalSymlinks(p); err == nil {
		return r
	}
	return p
}

// tidyPaths sorts a set and drops what another entry already covers. It
// works in ps, which it already sorted in place: what it keeps is never
// ahead of what it reads. ps must be the caller's own (a slice the memo
// shares would be rewritten for every tool that shares it).
func tidyPaths(ps []string) []string {
	slices.Sort(ps)
	ps = slices.Compact(ps)
	if len(ps) == 0 {
		return nil
	}
	out := ps[:0]
	for _, p := range ps {
		if !slices.ContainsFunc(out, func(kept string) bool { return within(p, kept) }) {
			out = append(out, p)
		}
	}
	return out
}

// programFiles is what running the program at path reads besides the
// system: the file itself and every interpreter it runs through (see
// interpreterChain), symlinks resolved.
func programFiles(path, pathList string) []string {
	if path == "" {
		return nil
	}
	chain, _ := interpreterChain(path, pathList) // a relative one is CheckProtected's to refuse
	out := make([]string, 0, 1+len(chain))
	out = append(out, realDir(path))
	for _, p := range chain {
		out = append(out, realDir(p))
	}
	return out
}

// readSandbox reads the tool's "sandbox" and "network" fields.
func (t *Tool) readSandbox(n *node, fail failFunc) error {
	var err error
	if v := n.get("network"); v != nil {
		if t.Network, err = readBool(v, "network"); err != nil {
			return fail(v, "network", "want true or false, got %s", v.kind)
		}
	}
	v := n.get("sandbox")
	switch {
	case v == nil:
		return nil
	case v.kind == kindBool:
		t.Unconfined = !v.bool
		return nil
	case v.kind != kindObject:
		return fail(v, "sandbox", `want {"read": [...], "write": [...]} or false, got %s`, v.kind)
	}
	if err := checkKeys(v, fmt.Sprintf("tool %q: sandbox", t.Name), "read", "write"); err != nil {
		return err
	}
	for _, key := range []string{"read", "write"} {
		l := v.get(key)
		if l == nil {
			continue
		}
		paths, err := readStrings(l, "sandbox."+key)
		if err != nil {
			return fail(l, "sandbox."+key, "want an array of paths")
		}
		if key == "write" && t.ReadOnly && len(paths) > 0 {
			return fail(l, "sandbox.write", "a read_only tool writes nothing; drop sandbox.write or read_only")
		}
		resolved, err := resolveEntries(t.workDir, paths)
		if err != nil {
			return fail(l, "sandbox."+key, "%v", err)
		}
		if key == "read" {
			t.sandboxRead = resolved
		} else {
			t.sandboxWrite = resolved
		}
	}
	return nil
}

// resolveEntries makes sandbox entries absolute (relative ones from base,
// like roots) with symlinks resolved. Each must exist: one created later
// could be a symlink planted to widen the set. Files and directories are
// both allowed.
func resolveEntries(base string, entries []string) ([]string, error) {
	out := make([]string, 0, len(entries))
	for _, e := range entries {
		if e == "" {
			return nil, fmt.Errorf("an empty path; write \".\" for the directory assent runs in")
		}
		real, err := filepath.EvalSymlinks(absFrom(base, e))
		if err != nil {
			return nil, fmt.Errorf("%s: %w", e, unwrapPathError(err))
		}
		out = append(out, real)
	}
	return out, nil
}
