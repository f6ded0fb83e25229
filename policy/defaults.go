package policy

import (
	"fmt"
	"path/filepath"
	"slices"
)

// The built-in rules are the default policy, and apply to every tool set,
// the embedded pack's and the operator's alike, unless the settings turn them
// off (settings.default_policy: false). The caller puts them after the rules
// of the files, so among rules of one decision a file's rule is named first;
// between decisions the usual precedence holds: an operator's deny or ask
// rule beats default:read-only, and default:secret-files and
// default:assent-state, being deny rules, beat any allow, remembered ones
// included. An operator who needs to read a file they deny cannot allow it
// back rule by rule; they turn the built-in rules off and write the rules
// they want instead (DefaultRules' written form is a starting point). Ids
// starting with "default:" are kept for these rules: a file cannot use them.

// BuiltinSource is the Source of the built-in rules, as decisions and
// `assent check` show it.
const BuiltinSource = "(built-in)"

// The ids of the built-in rules.
const (
	// DefaultReadOnly allows read-only, non-shell tools.
	DefaultReadOnly = builtinPrefix + "read-only"
	// DefaultSecretFiles denies any path argument whose name marks a file
	// that usually holds secrets.
	DefaultSecretFiles = builtinPrefix + "secret-files"
	// DefaultAssentState denies any path argument in assent's own state,
	// configuration or runtime directories.
	DefaultAssentState = builtinPrefix + "assent-state"
)

// builtinPrefix starts the id of every built-in rule and of no other.
const builtinPrefix = "default:"

// SecretFileGlobs are the base names default:secret-files denies, at any
// depth: environment files, private keys, and the credential files of
// netrc, git, npm and PyPI.
func SecretFileGlobs() []string {
	return []string{".env", ".env.*", "*.env", "*.pem", "*.key", "id_rsa*", "id_ed25519*",
		".netrc", ".git-credentials", ".npmrc", ".pypirc"}
}

// DefaultRules returns the built-in rules, checked like any rule file
// (their inline examples included), for the caller to pass to New after the
// files' rules:
//
//   - default:read-only allows a tool declared read_only (a shell tool is
//     still asked about, as for any allow rule), except when a path argument
//     is "/" or another directory above assent's own, since a recursive tool
//     there reads everything: those calls are asked about.
//   - default:secret-files denies a call any of whose path arguments has a
//     name in SecretFileGlobs.
//   - default:assent-state denies a call any of whose path arguments is one
//     of stateDirs or lies below it. stateDirs are the absolute state,
//     configuration and runtime directories; each is also denied as it
//     resolves through symlinks, since path arguments arrive resolved. With
//     no stateDirs the rule is left out.
func DefaultRules(stateDirs []string) ([]Rule, error) {
	dirs, err := stateDirForms(stateDirs)
	if err != nil {
		return nil, err
	}
	specs := []map[string]any{readOnlyRule(dirs), secretFilesRule()}
	if len(dirs) > 0 {
		specs = append(specs, assentStateRule(dirs))
	}
	rules := make([]Rule, 0, len(specs))
	for i, spec := range specs {
		raw, err := marshalText(spec, "")
		if err != nil {
			return nil, fmt.Errorf("built-in rule %v: %w", spec["id"], err)
		}
		r, err := parseRule(raw)
		if err != nil {
			return nil, locate(BuiltinSource, i, raw, err)
		}
		r.source, r.index = BuiltinSource, i
		rules = append(rules, r)
	}
	return rules, nil
}

// The built-in rules are written as a rule file would write them, and read
// by the same parser, so they are held to the same checks.

func readOnlyRule(dirs []string) map[string]any {
	notMatch := []any{call1("write_file", false)}
	r := map[string]any{"id": DefaultReadOnly, "decision": Allow, "read_only": true,
		"reason": "read-only tool (built-in default policy)"}
	if above := ancestors(dirs); len(above) > 0 {
		r["except"] = map[string]any{"paths": escapeAll(above)}
		notMatch = append(notMatch, map[string]any{"tool": "grep_search", "read_only": true, "paths": []string{above[0]}})
	}
	r["examples"] = map[string]any{"match": []any{call1("list_files", true)}, "not_match": notMatch}
	return r
}

func secretFilesRule() map[string]any {
	return map[string]any{"id": DefaultSecretFiles, "decision": Deny, "paths": SecretFileGlobs(),
		"reason": "the file's name marks it as one that usually holds secrets (built-in default policy)",
		"examples": map[string]any{
			"match": []any{
				map[string]any{"tool": "read_file", "paths": []string{"/srv/app/.env"}},
				map[string]any{"tool": "word_count", "paths": []string{"/srv/app/main.go", "/srv/app/prod.env"}},
				map[string]any{"tool": "grep_search", "paths": []string{"/home/me/.ssh/id_ed25519"}},
			},
			"not_match": []any{
				map[string]any{"tool": "read_file", "paths": []string{"/srv/app/env.go"}},
				map[string]any{"tool": "read_file", "paths": []string{"/srv/app/.env-docs/README.md"}},
				call1("get_info", true),
			}}}
}

func assentStateRule(dirs []string) map[string]any {
	var globs []string
	for _, d := range dirs {
		globs = append(globs, EscapeGlob(d), EscapeGlob(d)+"/*")
	}
	return map[string]any{"id": DefaultAssentState, "decision": Deny, "paths": globs,
		"reason": "the path is in assent's own state or configuration (built-in default policy)",
		"examples": map[string]any{
			"match": []any{
				map[string]any{"tool": "read_file", "paths": []string{dirs[0] + "/token"}},
				map[string]any{"tool": "list_files", "paths": []string{dirs[0]}},
			},
			"not_match": []any{map[string]any{"tool": "read_file", "paths": []string{dirs[0] + "-old/token"}}},
		}}
}

// call1 is an example call to a tool with no arguments.
func call1(tool string, readOnly bool) map[string]any {
	return map[string]any{"tool": tool, "read_only": readOnly}
}

// escapeAll turns paths into globs matching exactly those paths.
func escapeAll(paths []string) []string {
	out := make([]string, len(paths))
	for i, p := range paths {
		out[i] = EscapeGlob(p)
	}
	return out
}

// stateDirForms checks the state directories and returns each one clean
// and, where it differs, as it resolves through symlinks, without repeats.
func stateDirForms(stateDirs []string) ([]string, error) {
	var out []string
	for _, d := range stateDirs {
		clean := filepath.Clean(d)
		if !filepath.IsAbs(d) || clean == "/" {
			return nil, fmt.Errorf("built-in rules: state directory %q is not an absolute path below /", d)
		}
		for _, form := range []string{clean, resolveExisting(clean)} {
			if !slices.Contains(out, form) {
				out = append(out, form)
			}
		}
	}
	return out, nil
}

// resolveExisting resolves the symlinks of the longest part of p that
// exists, keeping the rest as written: a state directory assent has not
// created yet still resolves where its parent does.
func resolveExisting(p string) string {
	rest := ""
	for {
		if real, err := filepath.EvalSymlinks(p); err == nil {
			return filepath.Join(real, rest)
		}
		parent := filepath.Dir(p)
		if parent == p {
			return filepath.Join(p, rest)
		}
		rest = filepath.Join(filepath.Base(p), rest)
		p = parent
	}
}

// ancestors lists every directory above the given ones, "/" first, without
// repeats or the directories themselves.
func ancestors(dirs []string) []string {
	var out []string
	for _, d := range dirs {
		for p := filepath.Dir(d); ; p = filepath.Dir(p) {
			if !slices.Contains(out, p) && !slices.Contains(dirs, p) {
				out = append(out, p)
			}
			if p == filepath.Dir(p) {
				break
			}
		}
	}
	slices.Sort(out) // "/" sorts first
	return out
}
