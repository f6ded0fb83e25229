package policy

import (
	"errors"
	"fmt"
	"slices"
	"strings"
)

// matchSet is what a rule (or one of its except blocks) looks at. Every field
// that is set must match; an unset field matches anything.
type matchSet struct {
	tool     *glob        // the tool name
	client   *glob        // the MCP client name ("" when unknown)
	readOnly *bool        // the tool's read_only declaration
	args     []argPattern // per-parameter patterns, sorted by name
	onlyArgs bool         // no parameter outside args may be present
	paths    []pathGlob   // globs for every path argument, as written
	argv     []pattern    // one pattern per argv element, as written
	argvRest bool         // the last argv pattern is "**"
	// argv0Path is true when the argv[0] pattern mentions '/', so it names
	// the program by path rather than by base name.
	argv0Path bool
}

// argPattern is the pattern for one named parameter.
type argPattern struct {
	name string
	p    pattern
}

// matcherKeys lists the fields a matchSet reads, for error messages.
const matcherKeys = "tool, args, only_args, paths, argv, client, read_only"

// parseField reads one matcher field into m. It reports false for a key that
// is not a matcher, so rules can add their own fields around it.
func (m *matchSet) parseField(key string, raw []byte) (bool, error) {
	var err error
	switch key {
	case "tool":
		m.tool, err = parseNameGlob(raw, "tool")
	case "client":
		m.client, err = parseNameGlob(raw, "")
	case "read_only":
		var b bool
		b, err = decodeBool(raw)
		m.readOnly = &b
	case "only_args":
		m.onlyArgs, err = decodeBool(raw)
	case "args":
		m.args, err = parseArgs(raw)
	case "paths":
		m.paths, err = parsePaths(raw)
	case "argv":
		m.argv, m.argvRest, err = parseArgv(raw)
		m.argv0Path = err == nil && m.argv[0].mentionsSlash()
	default:
		return false, nil
	}
	return true, err
}

// parseNameGlob reads the glob for a tool or client name. An empty tool glob
// could only match a tool with no name, so it is refused as a mistake; an
// empty client glob is allowed and matches calls from an unknown client.
func parseNameGlob(raw []byte, refuseEmpty string) (*glob, error) {
	s, err := decodeString(raw)
	if err != nil {
		return nil, err
	}
	if s == "" && refuseEmpty != "" {
		return nil, fmt.Errorf("empty glob (leave %s out to match every %s)", refuseEmpty, refuseEmpty)
	}
	g, err := compileGlob(s)
	if err != nil {
		return nil, fmt.Errorf("glob %q: %w", s, err)
	}
	return &g, nil
}

// parseArgs reads {param: pattern, ...}.
func parseArgs(raw []byte) ([]argPattern, error) {
	members, err := decodeObject(raw)
	if err != nil {
		return nil, err
	}
	out := make([]argPattern, 0, len(members))
	for _, mem := range members {
		if mem.key == "" {
			return nil, errors.New("empty parameter name")
		}
		p, err := parsePattern(mem.raw)
		if err != nil {
			return nil, inField(mem.key, err)
		}
		out = append(out, argPattern{name: mem.key, p: p})
	}
	sortArgs(out)
	return out, nil
}

// sortArgs puts argument patterns in name order, so a rule's written form
// does not depend on the order its arguments were given in.
func sortArgs(a []argPattern) {
	slices.SortFunc(a, func(x, y argPattern) int { return strings.Compare(x.name, y.name) })
}

// parseArgv reads the argv token patterns. "**" may only come last: it
// stands for "and anything after", never for a gap in the middle, so what a
// pattern allows can be read left to right.
func parseArgv(raw []byte) ([]pattern, bool, error) {
	items, err := decodeArray(raw)
	if err != nil {
		return nil, false, err
	}
	if len(items) == 0 {
		return nil, false, errors.New(`empty argv pattern (use ["**"] to match any argv, or leave argv out)`)
	}
	out := make([]pattern, 0, len(items))
	for i, it := range items {
		p, err := parsePattern(it)
		if err == nil && p.kind == exactPattern && len(p.exact) != 1 {
			err = errors.New(`an argv element is one string: write {"exact": "..."}`)
		}
		if err == nil && p.isRest() && i != len(items)-1 {
			err = errors.New(`"**" matches the rest of argv, so it may only come last`)
		}
		if err != nil {
			return nil, false, inField(fmt.Sprintf("[%d]", i), err)
		}
		out = append(out, p)
	}
	return out, out[len(out)-1].isRest(), nil
}

// isEmpty reports whether no matcher is set.
func (m *matchSet) isEmpty() bool {
	return m.tool == nil && m.client == nil && m.readOnly == nil &&
		len(m.args) == 0 && !m.onlyArgs && m.paths == nil && m.argv == nil
}

// call is an Input prepared for matching: the base names argv[0] patterns
// compare against are cut once per decision, not once per rule. It holds a
// copy of the Input rather than a pointer so that matching, whose string
// arguments escape into regexp, does not move every Input to the heap.
type call struct {
	in        Input
	pathBase  string
	argv0Base string
	memo      regexMemo
}

func newCall(in *Input) call {
	c := call{in: *in, pathBase: baseName(in.Path)}
	if len(in.Argv) > 0 {
		c.argv0Base = baseName(in.Argv[0])
	}
	return c
}

// baseName is the part of a path after its last '/'.
func baseName(p string) string { return p[strings.LastIndexByte(p, '/')+1:] }

// matches reports whether the call satisfies every field that is set. every
// chooses how multi-valued things are read (see pattern.matchValues).
func (m *matchSet) matches(c *call, every bool) bool {
	in := &c.in
	if m.readOnly != nil && *m.readOnly != in.ReadOnly {
		return false
	}
	if m.tool != nil && !m.tool.match(in.Tool) {
		return false
	}
	if m.client != nil && !m.client.match(in.Client) {
		return false
	}
	if m.argv != nil && !m.matchArgv(c, every) {
		return false
	}
	if m.onlyArgs {
		// A parameter given as an empty list adds nothing to the call, so
		// it is no parameter outside the rule's.
		for name, vals := range in.Args {
			if len(vals) == 0 {
				continue
			}
			if !slices.ContainsFunc(m.args, func(a argPattern) bool { return a.name == name }) {
				return false
			}
		}
	}
	for i := range m.args {
		vals, ok := in.Args[m.args[i].name]
		if !ok || !m.args[i].p.matchValues(vals, every, &c.memo) {
			return false
		}
	}
	if m.paths != nil && !matchPaths(m.paths, in.Paths, every) {
		return false
	}
	return true
}

// matchArgv matches the token patterns one argv element each: a `*` inside a
// token never reaches into the next element, and without a final "**" the
// argv must have exactly as many elements as there are patterns (the sudoers
// pitfall, where `rm /tmp/*` also allowed `rm /tmp/x /etc/passwd`).
func (m *matchSet) matchArgv(c *call, every bool) bool {
	argv := c.in.Argv
	fixed := m.argv
	if m.argvRest {
		fixed = fixed[:len(fixed)-1]
		if len(argv) < len(fixed) {
			return false
		}
	} else if len(argv) != len(fixed) {
		return false
	}
	for i := range fixed {
		if i == 0 {
			if !matchProgram(&fixed[0], m.argv0Path, c, every) {
				return false
			}
		} else if !fixed[i].matchOne(argv[i], &c.memo) {
			return false
		}
	}
	return true
}

// matchProgram matches the argv[0] pattern. One that mentions '/' names a
// program by path and is matched against the resolved Path. One without '/'
// names a program by base name, matched against the base names of both Path
// and Argv[0] (they differ when the template names a link): an allow rule
// needs both to match, a deny or ask rule either.
func matchProgram(p *pattern, namesPath bool, c *call, every bool) bool {
	if namesPath {
		path := c.in.Path
		if path == "" {
			path = c.in.Argv[0]
		}
		return p.matchOne(path, &c.memo)
	}
	byArgv := p.matchOne(c.argv0Base, &c.memo)
	if c.in.Path == "" || c.pathBase == c.argv0Base {
		return byArgv
	}
	byBase := p.matchOne(c.pathBase, &c.memo)
	if every {
		return byArgv && byBase
	}
	return byArgv || byBase
}
