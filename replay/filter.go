package replay

import (
	"fmt"
	"time"

	"github.com/assent-sh/assent/journal"
	"github.com/assent-sh/assent/policy"
)

// Filter chooses which journaled calls to replay. The zero Filter keeps
// every call.
type Filter struct {
	// Tool is a glob in the policy's dialect the tool's name must match.
	Tool string
	// Since keeps calls received at or after it.
	Since time.Time
	// Call keeps only the call with this journal id.
	Call string
}

// Check refuses a filter that could never be applied (a bad glob).
func (f Filter) Check() error {
	if f.Tool == "" {
		return nil
	}
	if _, err := policy.MatchGlob(f.Tool, ""); err != nil {
		return fmt.Errorf("--tool %q: %w", f.Tool, err)
	}
	return nil
}

// Keep reports whether the call passes the filter.
func (f Filter) Keep(c journal.Call) bool {
	if f.Call != "" && c.ID != f.Call {
		return false
	}
	if !f.Since.IsZero() && c.Time.Before(f.Since) {
		return false
	}
	if f.Tool != "" {
		ok, _ := policy.MatchGlob(f.Tool, c.Tool)
		return ok
	}
	return true
}

// Select returns the calls that pass the filter, in order.
func (f Filter) Select(calls []journal.Call) []journal.Call {
	var out []journal.Call
	for _, c := range calls {
		if f.Keep(c) {
			out = append(out, c)
		}
	}
	return out
}
