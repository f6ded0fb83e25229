package policy

import (
	"fmt"
	"slices"
	"sync"
	"sync/atomic"
)

// Policy decides calls from a fixed list of rules plus the approvals an
// operator remembered. Decide is safe for concurrent use and never blocks:
// it reads an immutable index that remembering a rule replaces whole.
type Policy struct {
	rules []Rule // from tool and policy files, in load order
	file  string // the remembered-rules file, or "" when there is none

	// mu serializes remembering (and the file write it may do); Decide never
	// takes it.
	mu      sync.Mutex
	always  []Rule // the remembered-rules file's rules, as last read or written
	session []Rule // rules remembered for this session only

	ix atomic.Pointer[index]
}

// Option configures a Policy.
type Option func(*options)

type options struct {
	rememberedFile string
}

// WithRememberedFile names the file "always allow" rules are kept in. New
// reads it (a missing file holds no rules yet) and RememberAlways writes it.
func WithRememberedFile(path string) Option {
	return func(o *options) { o.rememberedFile = path }
}

// New builds a policy from rules in load order (typically the rules of each
// tool file in turn, then those of the policy file). Rule ids must be unique
// across all of them, so an id names exactly one rule in the console and the
// journal.
func New(rules []Rule, opts ...Option) (*Policy, error) {
	var o options
	for _, opt := range opts {
		opt(&o)
	}
	for i, r := range rules {
		if r.decision == "" {
			return nil, fmt.Errorf("rule %d was not loaded by ParseRules", i)
		}
	}
	p := &Policy{rules: slices.Clone(rules), file: o.rememberedFile}
	if p.file != "" {
		always, err := ReadRemembered(p.file)
		if err != nil {
			return nil, err
		}
		p.always = always
	}
	if err := uniqueIDs(append(p.Rules(), p.always...)); err != nil {
		return nil, err
	}
	p.reindex()
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

// reindex publishes a new index of every rule. The caller holds mu, or is New.
// Remembered rules come after the file rules, always before session, which
// only matters for which allow rule is named when several match.
func (p *Policy) reindex() {
	all := make([]Rule, 0, len(p.rules)+len(p.always)+len(p.session))
	all = append(append(append(all, p.rules...), p.always...), p.session...)
	p.ix.Store(newIndex(all))
}

// Decide returns the decision for a call. See the package documentation for
// the precedence.
func (p *Policy) Decide(in Input) Decision {
	return p.ix.Load().decide(&in)
}

// Rules returns the rules from tool and policy files, in load order.
func (p *Policy) Rules() []Rule { return slices.Clone(p.rules) }

// Remembered returns the remembered rules: those of the remembered-rules file
// (Memory Always), then the session's (Memory Session).
func (p *Policy) Remembered() []Rule {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append(slices.Clone(p.always), p.session...)
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
