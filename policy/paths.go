package policy

import (
	"errors"
	"fmt"
	"strings"
)

// The "paths" matcher looks at every path-typed argument of a call at once
// (Input.Paths: each path parameter's resolved value, list items included),
// so that one rule covers read_file's path, grep_search's path and
// word_count's files without naming each tool's parameters:
//
//	{"decision": "deny", "paths": ["*.pem", "/srv/app/secrets/*"]}
//
// It is a glob or a list of globs; a path matches the list when any glob
// matches it. A glob without '/' is matched against the path's base name, so
// ".env" means a file named .env in any directory (as in .gitignore); a glob
// with '/' is matched against the whole resolved path, and since `*` crosses
// '/', "/srv/app/*" is everything below /srv/app.
//
// Several paths are read as list arguments are, for the rule's decision: a
// deny or ask rule matches when any path matches, an allow rule only when
// every path does (and an except block the other way round). A call with no
// path argument matches neither way: there is no path to judge, so an allow
// rule with paths never covers, say, get_info; write a separate rule for
// tools without paths.

// pathGlob is one glob of a paths matcher.
type pathGlob struct {
	g     glob
	whole bool // the glob mentions '/', so it sees the whole path
}

// parsePaths reads a glob or a non-empty array of globs.
func parsePaths(raw []byte) ([]pathGlob, error) {
	texts, err := decodeStrings(raw)
	if err != nil {
		return nil, err
	}
	if len(texts) == 0 {
		return nil, errors.New("empty paths list (leave paths out to match any call)")
	}
	out := make([]pathGlob, 0, len(texts))
	for i, s := range texts {
		g, err := compileGlob(s)
		if err == nil && s == "" {
			err = errors.New("empty glob (no path is empty)")
		}
		if err != nil {
			if jsonKind(raw) == "an array" {
				return nil, inField(fmt.Sprintf("[%d]", i), fmt.Errorf("glob %q: %w", s, err))
			}
			return nil, fmt.Errorf("glob %q: %w", s, err)
		}
		out = append(out, pathGlob{g: g, whole: strings.Contains(s, "/")})
	}
	return out, nil
}

// pathsJSON is the written form: one glob as a string, several as an array.
func pathsJSON(gs []pathGlob) any {
	if len(gs) == 0 {
		return nil
	}
	if len(gs) == 1 {
		return gs[0].g.text
	}
	out := make([]string, len(gs))
	for i := range gs {
		out[i] = gs[i].g.text
	}
	return out
}

// matchPaths applies the globs to the call's paths: with every set (an allow
// rule) each path must match, otherwise one matching path is enough. No
// paths matches neither way.
func matchPaths(gs []pathGlob, paths []string, every bool) bool {
	if len(paths) == 0 {
		return false
	}
	for _, p := range paths {
		if matchPath(gs, p) != every {
			return !every
		}
	}
	return every
}

// matchPath reports whether any glob matches the path.
func matchPath(gs []pathGlob, p string) bool {
	base := baseName(p)
	for i := range gs {
		s := base
		if gs[i].whole {
			s = p
		}
		if gs[i].g.match(s) {
			return true
		}
	}
	return false
}
