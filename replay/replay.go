// Package replay submits journaled calls again, and says what today's
// tools and policy would decide for each. A replayed call is always a new
// call: it goes through today's tool files, argument checks, policy and,
// when policy asks, the operator. Nothing recorded as approved is run on
// the record's strength, and a denied or interrupted call is asked about
// like any other.
package replay

import (
	"context"
	"log/slog"

	"github.com/assent-sh/assent/config"
	"github.com/assent-sh/assent/journal"
	"github.com/assent-sh/assent/queue"
)

// session is the session name replayed calls carry.
const session = "replay"

// skip says why a journaled call cannot be submitted again with today's
// tool (nil when the tool is gone), or "" when it can: the journal keeps
// secret arguments only as masked tokens, so their values are gone.
func skip(tool *config.Tool, c journal.Call) string {
	switch {
	case tool == nil:
		return "the tool no longer exists"
	case journal.Masked(c.Args):
		return "the journal masked its secret arguments"
	}
	return ""
}

// Submit submits calls again, one after another, to q as new calls, with
// the tools in force as tools names them when each is submitted, and hands
// report each one's Comparison with its record as it ends. A call that
// skip refuses, or that the queue refuses, is reported as skipped. It
// returns when every call has ended or ctx is done.
func Submit(ctx context.Context, q *queue.Queue, tools func(name string) *config.Tool, calls []journal.Call,
	log *slog.Logger, report func(Comparison)) {
	for _, c := range calls {
		if ctx.Err() != nil {
			return
		}
		log := log.With("journaled_call", c.ID, "tool", c.Tool)
		tool := tools(c.Tool)
		if why := skip(tool, c); why != "" {
			log.Warn("replay: skipped, " + why)
			report(Comparison{Call: c.ID, Tool: c.Tool, Skipped: why})
			continue
		}
		out, err := q.Submit(ctx, queue.Request{Tool: tool, Args: c.Args, Client: c.Client,
			Session: session, Origin: session, ReplayOf: c.ID})
		if err != nil {
			log.Warn("replay: refused", "err", err)
			report(Comparison{Call: c.ID, Tool: c.Tool, Skipped: "refused today: " + err.Error()})
			continue
		}
		cmp := Compare(c, out.Call, q.JournalID(out.Call.ID))
		log.Info("replay", "call", out.Call.ID.String(), "status", string(out.Call.Status),
			"by", string(out.Call.Decider), "same", cmp.Same())
		report(cmp)
	}
}
