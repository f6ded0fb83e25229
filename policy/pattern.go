package policy

import (
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strings"
)

// pattern matches an argument value or an argv element. It is written as a
// glob string, as {"regex": "..."} (RE2, anchored at both ends, `.` matching
// newlines too so a multi-line value cannot slip past a deny), or as
// {"exact": "..."} / {"exact": [...]}, which compares a parameter's complete
// value list and is what remembered rules use, so that an agent's `*` stays a
// literal asterisk.
type pattern struct {
	kind  patternKind
	text  string   // the glob or regex as written
	exact []string // the values for exactPattern
	g     glob
	re    *regexp.Regexp
}

type patternKind uint8

const (
	globPattern patternKind = iota
	regexPattern
	exactPattern
)

// exactValues is a pattern matching exactly the value list vals.
func exactValues(vals []string) pattern {
	return pattern{kind: exactPattern, exact: slices.Clone(vals)}
}

// parsePattern reads a pattern from its JSON form.
func parsePattern(raw []byte) (pattern, error) {
	switch jsonKind(raw) {
	case "a string":
		s, err := decodeString(raw)
		if err != nil {
			return pattern{}, err
		}
		g, err := compileGlob(s)
		if err != nil {
			return pattern{}, fmt.Errorf("glob %q: %w", s, err)
		}
		return pattern{kind: globPattern, text: s, g: g}, nil
	case "an object":
	default:
		return pattern{}, fmt.Errorf(`want a glob string, {"regex": ...} or {"exact": ...}, got %s`, jsonKind(raw))
	}
	members, err := decodeObject(raw)
	if err != nil {
		return pattern{}, err
	}
	if len(members) != 1 {
		return pattern{}, errors.New(`want exactly one of "regex" or "exact"`)
	}
	m := members[0]
	switch m.key {
	case "regex":
		s, err := decodeString(m.raw)
		if err != nil {
			return pattern{}, inField("regex", err)
		}
		// Compiled alone first, so an error speaks of what the operator
		// wrote, and so nothing can close the anchoring group early.
		if _, err := regexp.Compile(s); err != nil {
			return pattern{}, inField("regex", fmt.Errorf("invalid regex %q: %w", s, err))
		}
		re, err := regexp.Compile(`\A(?s:` + s + `)\z`)
		if err != nil {
			return pattern{}, inField("regex", fmt.Errorf("invalid regex %q: %w", s, err))
		}
		return pattern{kind: regexPattern, text: s, re: re}, nil
	case "exact":
		vals, err := decodeStrings(m.raw)
		if err != nil {
			return pattern{}, inField("exact", err)
		}
		if vals == nil {
			vals = []string{}
		}
		return pattern{kind: exactPattern, exact: vals}, nil
	}
	return pattern{}, &fieldError{field: m.key, err: errors.New(`unknown field (a pattern object has "regex" or "exact")`)}
}

// MarshalJSON writes the pattern back in the form it was read from.
func (p pattern) MarshalJSON() ([]byte, error) {
	switch p.kind {
	case regexPattern:
		return marshalText(map[string]string{"regex": p.text}, "")
	case exactPattern:
		if len(p.exact) == 1 {
			return marshalText(map[string]string{"exact": p.exact[0]}, "")
		}
		return marshalText(map[string][]string{"exact": append([]string{}, p.exact...)}, "")
	}
	return marshalText(p.text, "")
}

// mentionsSlash reports whether the pattern as written contains '/', which
// makes an argv[0] pattern match the program path instead of its base name.
func (p *pattern) mentionsSlash() bool {
	if p.kind == exactPattern {
		return len(p.exact) == 1 && strings.Contains(p.exact[0], "/")
	}
	return strings.Contains(p.text, "/")
}

// isRest reports whether the pattern is the argv token "**", which matches
// all remaining argv elements.
func (p *pattern) isRest() bool { return p.kind == globPattern && p.text == "**" }

// matchOne matches a single string: one argv element, or one list item.
// Regex results are remembered in memo for the rest of the decision.
func (p *pattern) matchOne(s string, memo *regexMemo) bool {
	switch p.kind {
	case regexPattern:
		return memo.match(p, s)
	case exactPattern:
		return len(p.exact) == 1 && p.exact[0] == s
	}
	return p.g.match(s)
}

// matchValues matches a parameter's value list. An exact pattern compares the
// whole list. A glob or regex is tried on each item: with every set, all items
// must match (how allow rules read, so an allow never covers an item it did
// not look at); otherwise one matching item is enough (how deny and ask rules
// read, so one bad item is caught). An empty list matches neither way: there
// is no value to judge.
func (p *pattern) matchValues(vals []string, every bool, memo *regexMemo) bool {
	if p.kind == exactPattern {
		return slices.Equal(vals, p.exact)
	}
	if len(vals) == 0 {
		return false
	}
	for _, v := range vals {
		if p.matchOne(v, memo) != every {
			return !every
		}
	}
	return every
}

// regexMemo remembers, for one decision, what regexes said about values.
// Rules often repeat a regex (the same secret-file pattern on many tools),
// and a regex costs far more than a glob, so a decision asks each question
// once. It holds a few answers and simply stops remembering when full.
type regexMemo struct {
	n    int
	seen [8]struct {
		re, val string
		hit     bool
	}
}

// match returns what p's regex says about s, asking it at most once.
func (m *regexMemo) match(p *pattern, s string) bool {
	for i := range m.n {
		if e := &m.seen[i]; e.val == s && e.re == p.text {
			return e.hit
		}
	}
	hit := p.re.MatchString(s)
	if m.n < len(m.seen) {
		m.seen[m.n].re, m.seen[m.n].val, m.seen[m.n].hit = p.text, s, hit
		m.n++
	}
	return hit
}
