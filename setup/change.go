package setup

import (
	"errors"
	"sync"

	"github.com/assent-sh/assent/config"
	"github.com/assent-sh/assent/policy"
)

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
	// Apply puts the new tools and rules in force. It returns ErrStale
	// when what is in force changed since the Change was made.
	Apply func() error
}

// ErrStale refuses to apply a Change made against tools or a policy that
// are no longer in force; a newer Change describes the files as they are.
var ErrStale = errors.New("the tools or rules in force changed since this change was computed; review the newer change")

// Reloader is the one place that knows which set-up is in force and
// replaces it. Putting a set-up in force is the caller's: typically the
// queue takes the policy, then the MCP server the tools (so a rule added
// together with a tool is in force before the tool can be called). Rules
// the operator remembers need no carrying over: every policy the loader
// builds shares one memory.
type Reloader struct {
	loader *Loader
	put    func(Loaded)

	mu      sync.Mutex
	current Loaded
	applied chan struct{} // closed when another set-up is put in force, then replaced
}

// NewReloader returns a reloader for l with current in force; put is
// called, under the reloader's lock, with each set-up applied.
func NewReloader(l *Loader, current Loaded, put func(Loaded)) *Reloader {
	return &Reloader{loader: l, put: put, current: current, applied: make(chan struct{})}
}

// Current returns the set-up in force.
func (r *Reloader) Current() Loaded {
	current, _ := r.inForce()
	return current
}

// inForce returns the set-up in force and a channel closed when another is
// put in force: a watcher learns of every apply, by whomever, without
// holding the lock while it waits.
func (r *Reloader) inForce() (Loaded, <-chan struct{}) {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.current, r.applied
}

// Reload loads the files again and describes the change from what is in
// force, or why they do not load, without applying anything.
func (r *Reloader) Reload() Change {
	next, err := r.loader.Load()
	if err != nil {
		return Change{Err: err}
	}
	return r.diff(next)
}

// diff computes the Change from what is in force to next, without applying
// anything.
func (r *Reloader) diff(next Loaded) Change {
	base := r.Current()
	c := Change{
		Tools: config.Diff(base.Config, next.Config),
		Rules: policy.DiffRules(base.Policy.Rules(), next.Policy.Rules()),
	}
	for _, t := range c.Tools {
		c.Summary = append(c.Summary, t.String())
	}
	for _, rc := range c.Rules {
		c.Summary = append(c.Summary, rc.String())
	}
	c.Apply = func() error { return r.apply(base, next) }
	return c
}

// apply puts next in force if base still is. Hand edits to the
// remembered-rules file are read again with it.
func (r *Reloader) apply(base, next Loaded) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.current != base {
		return ErrStale
	}
	if err := r.loader.mem.Refresh(); err != nil {
		return err
	}
	r.put(next)
	r.current = next
	close(r.applied)
	r.applied = make(chan struct{})
	return nil
}
