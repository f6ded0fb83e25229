package policy

import "fmt"

// RuleChange is one difference between two rule lists, as an operator
// reviews it before changed rule files take effect.
type RuleChange struct {
	// Kind is "+" for a rule only the new list has, "-" for one only the
	// old list has, "~" for a rule whose id both lists use for different
	// rules.
	Kind string
	// Rule is the new rule ("+" and "~") or the old one ("-").
	Rule Rule
}

// String is the change as one line: the rule's label, and for an added or
// changed rule its written form, which is what the operator must read.
func (c RuleChange) String() string {
	if c.Kind == "-" {
		return fmt.Sprintf("- rule %s", c.Rule.Label())
	}
	return fmt.Sprintf("%s rule %s: %s", c.Kind, c.Rule.Label(), c.Rule)
}

// DiffRules lists how next differs from prev, comparing rules by their
// written JSON: a rule with an id is matched by id, one without by its
// JSON, so moving a rule within its file is no change. Removed and changed
// rules come in prev's order, then added ones in next's.
func DiffRules(prev, next []Rule) []RuleChange {
	byID := map[string]Rule{}
	unnamed := map[string]int{}
	for _, r := range next {
		if r.id != "" {
			byID[r.id] = r
		} else {
			unnamed[r.String()]++
		}
	}
	var out []RuleChange
	seenID := map[string]bool{}
	for _, r := range prev {
		if r.id == "" {
			if text := r.String(); unnamed[text] > 0 {
				unnamed[text]--
			} else {
				out = append(out, RuleChange{Kind: "-", Rule: r})
			}
			continue
		}
		seenID[r.id] = true
		n, ok := byID[r.id]
		switch {
		case !ok:
			out = append(out, RuleChange{Kind: "-", Rule: r})
		case n.String() != r.String():
			out = append(out, RuleChange{Kind: "~", Rule: n})
		}
	}
	for _, r := range next {
		if r.id != "" {
			if !seenID[r.id] {
				out = append(out, RuleChange{Kind: "+", Rule: r})
			}
			continue
		}
		if text := r.String(); unnamed[text] > 0 {
			unnamed[text]--
			out = append(out, RuleChange{Kind: "+", Rule: r})
		}
	}
	return out
}
