package policy

import (
	"fmt"
	"slices"
	"sync/atomic"
)

// Policy decides calls from a fixed list of rules plus the approvals an
// operator remembered, which live in a Memory shared by every Policy built
// with it. Decide is safe for concurrent use and never blocks: it reads an
// immutable index, rebuilt only when the remembered rules have changed.
type Policy struct {
	rules []Rule // from tool and policy files (and built-in rules), in load order
	mem   *Memory

	ix atomic.Pointer[indexed]
}

// indexed is an index of the policy's rules together with one generation
// of its memory's.
type indexed struct {
	mem *remembered
	ix  *index
}

// New builds a policy from rules in load order (typically the rules of each
// tool file in turn, then those of the policy file, then the built-in
// defaults) and the memory of remembered approvals, which may be nil. Rule
// ids must be unique across all of them, so an id names exactly one rule in
// the console and the journal. A nil memory gives the policy one of its own,
// with no store: session rules only, and none survive a reload.
func New(rules []Rule, mem *Memory) (*Policy, error) {
	for i, r := range rules {
		if r.decision == "" {
			return nil, fmt.Errorf("rule %d was not loaded by ParseRules", i)
		}
	}
	if mem == nil {
		mem, _ = NewMemory(nil) // a memory without a store cannot fail
	}
	p := &Policy{rules: slices.Clone(rules), mem: mem}
	if err := uniqueIDs(append(p.Rules(), mem.Rules()...)); err != nil {
		return nil, err
	}
	return p, nil
}

// uniqueIDs checks that no two rules share an id.
func uniqueIDs(rules []Rule) error {
	seen := map[string]string{}
	for _, r := range rules {
		if r.id == "" {
			continue
		}
		here := fmt.Sprintf("%s#%d", r.source, r.index)
		if prev, dup := seen[r.id]; dup {
			return fmt.Errorf("rule id %q is used twice: %s and %s", r.id, prev, here)
		}
		seen[r.id] = here
	}
	return nil
}

// index returns the index of every rule in force: the policy's, then the
// memory's always rules, then its session rules (an order that only matters
// for which allow rule is named when several match). Two calls racing to
// rebuild it after a remember build the same index; either may be kept.
func (p *Policy) index() *index {
	mem := p.mem.current()
	if c := p.ix.Load(); c != nil && c.mem == mem {
		return c.ix
	}
	all := p.rules
	if mem != nil && len(mem.rules) > 0 {
		all = append(slices.Clip(p.rules), mem.rules...)
	}
	c := &indexed{mem: mem, ix: newIndex(all)}
	p.ix.Store(c)
	return c.ix
}

// Decide returns the decision for a call. See the package documentation for
// the precedence.
func (p *Policy) Decide(in Input) Decision {
	return p.index().decide(&in)
}

// Rules returns the rules from tool and policy files, in load order.
func (p *Policy) Rules() []Rule { return slices.Clone(p.rules) }

// Memory returns the memory of remembered approvals, to build the next
// policy with after a reload.
func (p *Policy) Memory() *Memory { return p.mem }

// Remembered returns the remembered rules: those of the store (kept
// Always), then the session's (kept Session).
func (p *Policy) Remembered() []Rule { return p.mem.Rules() }

// RememberSession adds an allow rule for the rest of this process's life, in
// the policy's memory; every policy sharing it decides by the rule at once.
// A rule that decides the same calls as one already remembered (in either
// kind) is not added twice.
func (p *Policy) RememberSession(r Rule) error {
	return p.mem.rememberSession(r)
}

// RememberAlways adds an allow rule to the memory's store and to the rules
// in force; see Memory for what sharing it means. The store is re-read
// first, so rules added to it by hand since are kept; a rule already in it
// is not written twice.
func (p *Policy) RememberAlways(r Rule) error {
	return p.mem.rememberAlways(r, p.rules)
}

// CheckExamples runs every rule's examples (file rules, then remembered
// rules) and returns the results in order, for `assent check` to print. A
// rule with a failing example does not load, so a loaded policy's results
// are all OK; they are still computed, not assumed.
func (p *Policy) CheckExamples() []ExampleResult {
	var out []ExampleResult
	for _, r := range append(p.Rules(), p.Remembered()...) {
		out = append(out, r.CheckExamples()...)
	}
	return out
}
