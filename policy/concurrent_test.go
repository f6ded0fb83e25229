package policy

import (
	"fmt"
	"sync"
	"testing"

	"go.uber.org/goleak"
)

// Deciding runs on every call while the operator remembers rules from the
// console; under -race this shows the two never share unguarded state, and
// that no decision is ever wrong while the index is being replaced.
func TestPolicy_ConcurrentDecideAndRemember(t *testing.T) {
	defer goleak.VerifyNone(t)
	store := &memStore{}
	p := mustPolicyWith(t, workedRules, mustMemory(t, store))
	denied := Input{Tool: "read_file", ReadOnly: true, Args: args("path", "prod.env")}
	remembered := func(w, i int) Input {
		return Input{Tool: fmt.Sprintf("tool_%d", w), Args: args("n", fmt.Sprint(i))}
	}
	const writers, perWriter = 3, 20
	var wg sync.WaitGroup
	for range 4 {
		wg.Go(func() {
			for range 300 {
				// The writers remember an allow for this very call; a deny
				// still wins, before, during and after.
				if d := p.Decide(denied); d.Action != Deny || d.Rule != "no-env-files" {
					t.Errorf("denied call decided %+v while rules were remembered", d)
					return
				}
			}
		})
	}
	for w := range writers {
		wg.Go(func() {
			if err := p.RememberSession(Narrowest(denied)); err != nil {
				t.Errorf("remember: %v", err)
			}
			for i := range perWriter {
				remember := p.RememberSession
				if i%4 == 0 {
					remember = p.RememberAlways
				}
				if err := remember(Narrowest(remembered(w, i))); err != nil {
					t.Errorf("remember: %v", err)
				}
			}
		})
	}
	wg.Wait()
	for w := range writers {
		for i := range perWriter {
			if d := p.Decide(remembered(w, i)); d.Action != Allow {
				t.Errorf("remembered call %d/%d decided %+v", w, i, d)
			}
		}
	}
	// Each writer's allow for the denied call is the same rule: kept once.
	if got := len(p.Remembered()); got != writers*perWriter+1 {
		t.Errorf("remembered %d rules, want %d", got, writers*perWriter+1)
	}
	saved, err := store.Load()
	if err != nil || len(saved) != writers*perWriter/4 {
		t.Errorf("file holds %d rules (%v), want %d", len(saved), err, writers*perWriter/4)
	}
}
