package policy

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"slices"
	"sync"
	"sync/atomic"
	"time"
)

// Store keeps the "always allow" rules between runs: the remembered-rules
// file, which the loader implements, or anything else a test supplies.
type Store interface {
	// Load returns the rules stored now. It is called again before every
	// save, so rules an operator added by hand since are kept.
	Load() ([]Rule, error)
	// Save replaces the stored rules, atomically.
	Save(rules []Rule) error
	// Name says where the rules are kept, for rule labels and messages.
	Name() string
}

// savedID is the id an "always allow" rule is saved with when it has none:
// derived from what it matches, so the same rule saved twice has the same
// id, and the id names it in the journal however the file is reordered.
func savedID(r Rule) string {
	sum := sha256.Sum256([]byte(r.sameMatches()))
	return "saved-" + hex.EncodeToString(sum[:4])
}

// Forget removes the always rule with the given id from the store and from
// the rules in force. A rule that is not there is an error naming it; a
// store that holds a rule other than an allow rule is refused, as at
// every read, and left as it is.
func (m *Memory) Forget(id string) error {
	if m.store == nil {
		return errors.New("no remembered-rules file is configured")
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	current, err := m.loadStore()
	if err != nil {
		return err
	}
	i := slices.IndexFunc(current, func(r Rule) bool { return r.id == id || r.Label() == id })
	if i < 0 {
		return fmt.Errorf("no remembered rule %q in %s", id, m.store.Name())
	}
	current = slices.Delete(current, i, i+1)
	for j := range current {
		current[j].index = j
	}
	if err := m.store.Save(current); err != nil {
		return err
	}
	m.always = current
	m.publish()
	return nil
}

// Memory holds the approvals an operator asked to remember: session rules,
// in memory until assent exits, and always rules, kept in a Store. It lives
// apart from any Policy and outlives reloads: every Policy built with the
// same Memory sees every rule remembered through any of them, the moment
// it is remembered, so a rule remembered while a changed tool file is being
// applied is never lost or left out of force.
type Memory struct {
	store Store            // nil: always rules cannot be kept
	clock func() time.Time // when a rule is saved

	// mu serializes remembering (and the store write it may do); deciding
	// never takes it.
	mu      sync.Mutex
	always  []Rule
	session []Rule

	// now is the published set of rules, always then session. A new value
	// is stored whenever the set changes; a Policy rebuilds its index when
	// the pointer it indexed is no longer the current one.
	now atomic.Pointer[remembered]
}

// remembered is one immutable generation of a Memory's rules.
type remembered struct {
	rules []Rule
}

// NewMemory returns a memory holding the store's rules (none when store is
// nil: then only session rules can be remembered).
func NewMemory(store Store) (*Memory, error) {
	m := &Memory{store: store, clock: time.Now}
	if store != nil {
		always, err := m.loadStore()
		if err != nil {
			return nil, err
		}
		m.always = always
	}
	m.publish()
	return m, nil
}

// loadStore reads the always rules from the store, refusing any that is not
// an allow rule: whoever could put a deny or ask rule there was not the
// console. Every read of the store goes through it.
func (m *Memory) loadStore() ([]Rule, error) {
	rules, err := m.store.Load()
	if err != nil {
		return nil, err
	}
	if err := checkAlways(m.store.Name(), rules); err != nil {
		return nil, err
	}
	return rules, nil
}

// checkAlways refuses rules that are not allow rules in a store or a
// remembered-rules file.
func checkAlways(source string, rules []Rule) error {
	for i := range rules {
		if rules[i].decision != Allow {
			return &RuleError{Source: source, Index: i, ID: rules[i].id, Field: "decision", Err: errNotAllow}
		}
	}
	return nil
}

// publish makes the current rules visible to deciding. The caller holds mu,
// or is NewMemory.
func (m *Memory) publish() {
	all := make([]Rule, 0, len(m.always)+len(m.session))
	m.now.Store(&remembered{rules: append(append(all, m.always...), m.session...)})
}

// current returns the rules in force now; nil for a nil Memory.
func (m *Memory) current() *remembered {
	if m == nil {
		return nil
	}
	return m.now.Load()
}

// Rules returns the remembered rules: the store's (kept Always), then the
// session's (kept Session).
func (m *Memory) Rules() []Rule {
	if c := m.current(); c != nil {
		return slices.Clone(c.rules)
	}
	return nil
}

// StoreName says where always rules are kept, or "" when they cannot be.
func (m *Memory) StoreName() string {
	if m == nil || m.store == nil {
		return ""
	}
	return m.store.Name()
}

// Refresh reads the store again, so rules an operator edited by hand take
// effect; the loader calls it when the tool and policy files are reloaded.
// On error the rules in force stay.
func (m *Memory) Refresh() error {
	if m == nil || m.store == nil {
		return nil
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	always, err := m.loadStore()
	if err != nil {
		return err
	}
	m.always = always
	m.publish()
	return nil
}

// rememberSession adds an allow rule for the rest of this process's life.
// A rule that decides the same calls as one already remembered (in either
// kind) is not added twice.
func (m *Memory) rememberSession(r Rule) error {
	if err := rememberable(r); err != nil {
		return err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	key := r.sameMatches()
	if indexByMatches(m.always, key) >= 0 || indexByMatches(m.session, key) >= 0 {
		return nil
	}
	r.source, r.index, r.memory = string(Session), len(m.session), Session
	m.session = append(slices.Clip(m.session), r)
	m.publish()
	return nil
}

// rememberAlways adds an allow rule to the store and to the rules in force.
// The store is read first, so rules added to it by hand since it was loaded
// are kept (and from then on take effect too); a rule already in it is not
// written twice. fixed are the rules of the policy in force, whose ids a
// remembered rule may not reuse.
func (m *Memory) rememberAlways(r Rule, fixed []Rule) error {
	if err := rememberable(r); err != nil {
		return err
	}
	if m.store == nil {
		return errors.New("no remembered-rules file is configured")
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	current, err := m.loadStore()
	if err != nil {
		return fmt.Errorf("rule not remembered: %w", err)
	}
	fresh := indexByMatches(current, r.sameMatches()) < 0
	if fresh {
		if r.id == "" {
			r.id = savedID(r)
		}
		r.source, r.index, r.memory, r.saved = m.store.Name(), len(current), Always, m.clock().UTC().Truncate(time.Second)
		current = append(current, r)
	}
	if err := uniqueIDs(append(slices.Clone(fixed), current...)); err != nil {
		return fmt.Errorf("rule not remembered: %w", err)
	}
	if fresh {
		if err := m.store.Save(current); err != nil {
			return fmt.Errorf("rule not remembered: %w", err)
		}
	}
	m.always = current
	m.publish()
	return nil
}
