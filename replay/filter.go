package replay

import (
	"context"
	"errors"
	"io"
	"time"

	"github.com/assent-sh/assent/journal"
)

// Filter chooses which journaled calls to replay. The zero Filter keeps
// every call.
type Filter struct {
	// Tool reports whether a tool's name is chosen: a glob compiled with
	// policy.GlobMatcher, so --tool reads as a rule's tool does. Nil
	// chooses every tool.
	Tool func(name string) bool
	// Since keeps calls received at or after it.
	Since time.Time
	// Call keeps only the call with this journal id.
	Call string
}

// keep reports whether a call passes the filter's tool and id; Since is
// applied while the journal is read.
func (f Filter) keep(c journal.Call) bool {
	if f.Call != "" && c.ID != f.Call {
		return false
	}
	return f.Tool == nil || f.Tool(c.Tool)
}

// Read streams the calls of the journal at path (see journal.NewReader)
// and returns those the filter keeps, in the order they began, each whole:
// its arguments, edit and output, which replay submits and compares, but
// not its records. Only the calls kept are held, never the journal's
// records.
func Read(ctx context.Context, path string, f Filter) ([]journal.Call, error) {
	r, err := journal.NewCallReader(path, journal.CallOptions{Whole: true, Since: f.Since})
	if err != nil {
		return nil, err
	}
	defer r.Close()
	var calls []journal.Call
	for {
		c, err := r.Next(ctx)
		switch {
		case errors.Is(err, io.EOF):
			return calls, nil
		case err != nil:
			return nil, err
		case f.keep(c):
			calls = append(calls, c)
		}
	}
}
