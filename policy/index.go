package policy

// The index exists for speed only and must never change an answer: Decide
// with the index returns exactly what evaluating every rule in load order
// would (a test compares the two on random rule sets).
//
// Rules are split by decision into three tiers, checked deny, then ask, then
// allow, and the first matching rule of the first tier with a match decides.
// Within a tier, a rule whose tool glob is a plain name can only match calls
// to that tool, so it is filed under the name. Rules with a wildcard tool (or
// none) are kept in a list of their own, and are also filed, when the index
// is built, under every plain name their tool glob matches. Each list stays
// in load order, so "first in load order" means the same as without the
// index, and a call to a named tool walks only the rules that can apply to
// it; a call to a tool no rule names walks the wildcard list.

// entry is a rule in the index with everything its decision needs
// precomputed, so deciding allocates nothing.
type entry struct {
	rule Rule
	pos  int // position in load order across all rules
	// decided is the decision the rule gives; shellAsk is the one it gives
	// for a shell tool when it is an allow rule.
	decided, shellAsk Decision
}

// tier holds the rules of one decision.
type tier struct {
	byTool map[string][]*entry
	wild   []*entry
}

// index is an immutable snapshot of every rule the policy decides with.
// Remembering a rule builds a new one; deciding never locks.
type index struct {
	deny, ask, allow tier
}

// newIndex files rules in the order given.
func newIndex(rules []Rule) *index {
	ix := &index{}
	for pos, r := range rules {
		e := &entry{rule: r, pos: pos, decided: ruleDecision(r)}
		if r.decision == Allow {
			e.shellAsk = e.decided
			e.shellAsk.Action = Ask
			e.shellAsk.Reason = "shell tools are never auto-approved (rule " + e.decided.Rule +
				" would allow it: " + e.decided.Reason + ")"
		}
		t := ix.tierFor(r.decision)
		if g := r.match.tool; g != nil && g.isLiteral() {
			if t.byTool == nil {
				t.byTool = map[string][]*entry{}
			}
			t.byTool[g.lit] = append(t.byTool[g.lit], e)
		} else {
			t.wild = append(t.wild, e)
		}
	}
	for _, t := range []*tier{&ix.deny, &ix.ask, &ix.allow} {
		t.fileWildByName()
	}
	return ix
}

// fileWildByName adds each wildcard rule to the list of every named tool its
// tool glob matches, keeping each list in load order.
func (t *tier) fileWildByName() {
	for name, named := range t.byTool {
		merged := make([]*entry, 0, len(named)+len(t.wild))
		i := 0
		for _, w := range t.wild {
			for i < len(named) && named[i].pos < w.pos {
				merged = append(merged, named[i])
				i++
			}
			if w.rule.match.tool == nil || w.rule.match.tool.match(name) {
				merged = append(merged, w)
			}
		}
		t.byTool[name] = append(merged, named[i:]...)
	}
}

func (ix *index) tierFor(a Action) *tier {
	switch a {
	case Deny:
		return &ix.deny
	case Ask:
		return &ix.ask
	}
	return &ix.allow
}

// ruleDecision is the decision a matching rule gives.
func ruleDecision(r Rule) Decision {
	d := Decision{Action: r.decision, Rule: r.Label(), Reason: r.reason,
		Source: r.source, Index: r.index, Remembered: r.memory}
	if d.Reason == "" {
		d.Reason = "matched rule " + d.Rule
	}
	return d
}

// decide applies the precedence: deny, then ask, then allow, then ask for a
// call nothing matched.
func (ix *index) decide(in *Input) Decision {
	c := newCall(in)
	if e := ix.deny.first(&c); e != nil {
		return e.decided
	}
	if e := ix.ask.first(&c); e != nil {
		return e.decided
	}
	if e := ix.allow.first(&c); e != nil {
		if in.Shell {
			return e.shellAsk
		}
		return e.decided
	}
	return noMatch()
}

// first returns the tier's first matching rule in load order, or nil.
func (t *tier) first(c *call) *entry {
	candidates, named := t.byTool[c.in.Tool]
	if !named {
		candidates = t.wild
	}
	for _, e := range candidates {
		if e.rule.matches(c) {
			return e
		}
	}
	return nil
}
