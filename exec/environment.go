package exec

import (
	"slices"
	"strings"
)

// Environ returns the environment a command declaring these pairs runs
// with (see environ), as a slice of the caller's own: what a comparison
// that runs the same program without the runner must give it, since a
// child's environment changes what its start costs (a glibc program
// given LANG=C.UTF-8 loads the locale from a dozen files).
func (l *Local) Environ(declared []string) []string { return slices.Clone(l.environ(declared)) }

// environ builds a child's environment from scratch: the pinned base, then
// the pairs the command declares. Nothing comes from the server's own
// environment, so LD_PRELOAD, BASH_ENV, GIT_DIR, PYTHONPATH, PAGER, the
// server's tokens and the like cannot reach a child unless a tool file names
// them. That is an allowlist by construction, which no deny list can match:
// a variable invented tomorrow is excluded too.
//
// A declared pair replaces a base pair with the same key rather than
// following it, so every key appears exactly once and what the operator
// approved (the declared value) is what the child reads, whichever of two
// duplicates a given program would pick.
func (l *Local) environ(declared []string) []string {
	if len(declared) == 0 {
		return l.baseEnv // shared: nothing downstream changes it
	}
	env := append(make([]string, 0, len(l.baseEnv)+len(declared)), l.baseEnv...)
	index := make(map[string]int, cap(env))
	for i, kv := range env {
		index[envKey(kv)] = i
	}
	for _, kv := range declared {
		k := envKey(kv)
		if i, ok := index[k]; ok {
			env[i] = kv
			continue
		}
		index[k] = len(env)
		env = append(env, kv)
	}
	return env
}

// envKey returns the name part of a KEY=VALUE pair. Command.Validate has
// already refused pairs without "=".
func envKey(kv string) string {
	k, _, _ := strings.Cut(kv, "=")
	return k
}

// baseEnviron is the pinned base every child gets.
func baseEnviron(o Options) []string {
	return []string{
		"PATH=" + o.Path,
		"HOME=" + o.Home,
		"LANG=" + o.Lang,
		"LC_ALL=" + o.Lang,
		"TERM=dumb",
	}
}
