package policy

import (
	"errors"
	"fmt"
	"slices"
	"strings"
)

// errNotAllow is returned when a rule that does not allow is remembered.
var errNotAllow = errors.New("only allow rules can be remembered")

// rememberedReason is the reason a remembered rule gives for the calls it
// allows.
const rememberedReason = "approved earlier by the operator"

// Narrowest returns the narrowest allow rule covering the call: this tool,
// and exactly these argument values (each parameter's complete value list,
// compared literally, so a `*` or `?` an agent sent stays a literal
// character), and no other parameter present (so a later call that adds an
// option is not covered). It is what "always allow" and "allow for this
// session" propose; the operator may widen it with WidenArg before it is
// remembered.
func Narrowest(in Input) Rule {
	tool := literalGlob(in.Tool)
	r := Rule{decision: Allow, reason: rememberedReason, index: -1}
	r.match.tool = &tool
	r.match.onlyArgs = true
	for name, vals := range in.Args {
		if len(vals) == 0 {
			continue // an empty list adds nothing; only_args does not count it
		}
		r.match.args = append(r.match.args, argPattern{name: name, p: exactValues(vals)})
	}
	sortArgs(r.match.args)
	return r
}

// ForClient returns a copy of the rule that matches only calls from the
// named client (literally: a `*` in a client's name is not a wildcard), as
// "allow for this session" proposes by default. The copy has no place yet.
func (r Rule) ForClient(name string) Rule {
	g := literalGlob(name)
	r.match.client = &g
	r.source, r.index, r.memory = "", -1, ""
	return r
}

// Matches reports whether the rule matches the call, as deciding reads it
// for the rule's decision. The queue checks with it that a rule an
// operator widened still covers the call it was made from.
func (r Rule) Matches(in Input) bool {
	c := newCall(&in)
	return r.matches(&c)
}

// WidenArg returns a copy of the rule in which parameter param matches the
// glob instead of its exact value. It is how an operator turns "this path"
// into "any path under ./src/" before saving; an agent's text never becomes
// a pattern any other way. For a list parameter the glob must match every
// item, as for any allow rule. The copy has no place yet (Source "").
func (r Rule) WidenArg(param, globText string) (Rule, error) {
	i := slices.IndexFunc(r.match.args, func(a argPattern) bool { return a.name == param })
	if i < 0 {
		return Rule{}, fmt.Errorf("rule has no argument %q to widen", param)
	}
	g, err := compileGlob(globText)
	if err != nil {
		return Rule{}, fmt.Errorf("argument %q: glob %q: %w", param, globText, err)
	}
	r.match.args = slices.Clone(r.match.args)
	r.match.args[i].p = pattern{kind: globPattern, text: globText, g: g}
	r.source, r.index, r.memory = "", -1, ""
	return r, nil
}

// rememberable checks that a rule may be remembered: it allows, and it reads
// back from its written form as the same rule, so the remembered-rules file
// never holds a rule that would stop it loading.
func rememberable(r Rule) error {
	if r.decision != Allow {
		return errNotAllow
	}
	back, err := parseRule([]byte(r.String()))
	if err != nil {
		return fmt.Errorf("rule %s would not read back: %w", r, err)
	}
	if back.sameMatches() != r.sameMatches() {
		return fmt.Errorf("rule %s would read back as %s", r, back)
	}
	return nil
}

// indexByMatches finds the rule deciding the same calls as key, or -1.
func indexByMatches(rules []Rule, key string) int {
	return slices.IndexFunc(rules, func(r Rule) bool { return r.sameMatches() == key })
}

// Mentions reports whether s appears in any value or pattern the rule
// matches arguments, paths or argv with, as the rule holds it rather than
// as it is written: a remembered rule is saved as JSON, whose escapes would
// hide a value from a search of the text. Names (of the tool, the client,
// parameters) are not searched: they come from the configuration and the
// client, not from a call's values. The queue uses it to keep a secret
// parameter's value out of the remembered-rules file.
func (r Rule) Mentions(s string) bool {
	if s == "" {
		return false
	}
	return r.match.mentions(s) || slices.ContainsFunc(r.except, func(m matchSet) bool { return m.mentions(s) })
}

func (m *matchSet) mentions(s string) bool {
	in := func(text string) bool { return strings.Contains(text, s) }
	inGlob := func(g glob) bool { return in(g.text) || in(unescapeGlob(g.text)) }
	inPattern := func(p pattern) bool { return in(p.text) || inGlob(p.g) || slices.ContainsFunc(p.exact, in) }
	return slices.ContainsFunc(m.args, func(a argPattern) bool { return inPattern(a.p) }) ||
		slices.ContainsFunc(m.paths, func(p pathGlob) bool { return inGlob(p.g) }) ||
		slices.ContainsFunc(m.argv, inPattern)
}

// StringMasked is the rule as String writes it, with each exact value of
// the named parameters written as mask: how the console shows a rule that
// holds a secret parameter's value. A glob the operator widened a
// parameter to is the operator's own text, and is shown as it is.
func (r Rule) StringMasked(params []string, mask string) string {
	r.match.args = slices.Clone(r.match.args)
	for i, a := range r.match.args {
		if a.p.kind == exactPattern && slices.Contains(params, a.name) {
			hidden := make([]string, len(a.p.exact))
			for j := range hidden {
				hidden[j] = mask
			}
			r.match.args[i].p = exactValues(hidden)
		}
	}
	return r.String()
}
