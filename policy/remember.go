package policy

import (
	"errors"
	"fmt"
	"slices"
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
