package server

import (
	"errors"
	"fmt"

	"github.com/assent-sh/assent/config"
	"github.com/assent-sh/assent/policy"
)

// Loaded is a tool set and the policy built with it, as reloading the
// tool and policy files produces them.
type Loaded struct {
	Config *config.Config
	Policy *policy.Policy
}

// Change is what changed tool or policy files would change. It is never
// applied by itself: an agent that could write a tool file could otherwise
// grant itself anything. Headless mode applies it only when told to
// (--watch); the console shows it and applies it when the operator
// confirms.
type Change struct {
	// Summary is the change in lines an operator reads: "+ tool x",
	// "- tool y", "~ tool z: command changed", "+ rule r: {...}",
	// "- rule s". Empty (with Err nil) after an earlier Change reported an
	// error: the files load again and match what is in force.
	Summary []string
	// Tools and Rules are the same differences, structured.
	Tools []config.ToolChange
	Rules []policy.RuleChange
	// Err says why the files do not load (or may not be used); the tools
	// and rules in force stay. Apply is nil then.
	Err error
	// Apply puts the new tools and rules in force: the queue decides new
	// calls by the new policy, and the tool set is replaced and announced
	// to clients (tools/list_changed). It returns ErrStale when the tools
	// or policy in force changed since the Change was made.
	Apply func() error
}

// ErrStale refuses to apply a Change made against tools or a policy that
// are no longer in force; a newer Change describes the files as they are.
var ErrStale = errors.New("the tools or rules in force changed since this change was computed; review the newer change")

// Diff computes the Change from what is in force to next, without applying
// anything.
func (s *Server) Diff(next Loaded) Change {
	s.mu.Lock()
	cfg, pol := s.Config(), s.q.Policy()
	s.mu.Unlock()
	c := Change{
		Tools: config.Diff(cfg, next.Config),
		Rules: policy.DiffRules(pol.Rules(), next.Policy.Rules()),
	}
	for _, t := range c.Tools {
		c.Summary = append(c.Summary, t.String())
	}
	for _, r := range c.Rules {
		c.Summary = append(c.Summary, r.String())
	}
	c.Apply = func() error { return s.apply(cfg, pol, next) }
	return c
}

// apply replaces the policy, then the tools, if base is still in force.
// The policy goes first so that a rule added together with a tool is in
// force before the tool can be called. Rules the operator remembered carry
// over: session rules, and "always" rules saved since the new policy read
// their file.
func (s *Server) apply(baseCfg *config.Config, basePol *policy.Policy, next Loaded) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.Config() != baseCfg || s.q.Policy() != basePol {
		return ErrStale
	}
	for _, r := range basePol.Remembered() {
		remember := next.Policy.RememberSession
		if r.Memory() == policy.Always {
			// Saved after the new policy read the file: remembering it
			// again re-reads the file and finds it there.
			remember = next.Policy.RememberAlways
		}
		if err := remember(r); err != nil {
			return fmt.Errorf("carrying over remembered rule %s: %w", r.Label(), err)
		}
	}
	s.q.SetPolicy(next.Policy)
	s.setToolsLocked(next.Config)
	return nil
}
