// Package replay submits journaled calls again, and says what today's
// tools and policy would decide for each. A replayed call is always a new
// call: it goes through today's tool files, argument checks, policy and,
// when policy asks, the operator. Nothing recorded as approved is run on
// the record's strength, and a denied or interrupted call is asked about
// like any other.
package replay

import (
	"context"
	"fmt"
	"log/slog"
	"slices"

	"github.com/assent-sh/assent/config"
	"github.com/assent-sh/assent/journal"
	"github.com/assent-sh/assent/policy"
	"github.com/assent-sh/assent/queue"
)

// Session is the session name replayed calls carry.
const Session = "replay"

// Skip says why a journaled call cannot be submitted again with today's
// tool (nil when the tool is gone), or "" when it can: the journal keeps
// secret arguments only as masked tokens, so their values are gone.
func Skip(tool *config.Tool, c journal.Call) string {
	switch {
	case tool == nil:
		return "the tool no longer exists"
	case journal.Masked(c.Args):
		return "the journal masked its secret arguments"
	}
	return ""
}

// Submit submits calls again, one after another, to q as new calls, with
// the tools in force as tools names them when each is submitted. A call
// that Skip refuses, or that the queue refuses, is logged and passed over.
// It returns when every call has ended or ctx is done.
func Submit(ctx context.Context, q *queue.Queue, tools func(name string) *config.Tool, calls []journal.Call, log *slog.Logger) {
	for _, c := range calls {
		if ctx.Err() != nil {
			return
		}
		log := log.With("journaled_call", c.ID, "tool", c.Tool)
		tool := tools(c.Tool)
		if why := Skip(tool, c); why != "" {
			log.Warn("replay: skipped, " + why)
			continue
		}
		out, err := q.Submit(ctx, queue.Request{Tool: tool, Args: c.Args, Client: c.Client,
			Session: Session, Origin: Session})
		if err != nil {
			log.Warn("replay: refused", "err", err)
			continue
		}
		log.Info("replay", "call", out.Call.ID.String(), "status", string(out.Call.Status), "by", string(out.Call.Decider))
	}
}

// Verdict is one journaled call compared with what would be decided today.
type Verdict struct {
	Call    string   `json:"call"`
	Tool    string   `json:"tool"`
	Then    string   `json:"then"`
	Now     string   `json:"now"`
	Rule    string   `json:"rule,omitempty"`
	Argv    []string `json:"argv,omitempty"`
	Differs []string `json:"differs,omitempty"`
}

// Check decides a journaled call with today's config and policy, running
// nothing, and says where the outcome differs from the record.
func Check(cfg *config.Config, pol *policy.Policy, c journal.Call) Verdict {
	v := Verdict{Call: c.ID, Tool: c.Tool, Then: string(c.Decision) + " by " + string(c.Decider)}
	if c.State == journal.Interrupted {
		v.Then += ", interrupted"
	}
	tool := cfg.Tool(c.Tool)
	if tool == nil {
		v.Now, v.Differs = "refused", []string{"the tool no longer exists"}
		return v
	}
	if journal.Masked(c.Args) {
		v.Differs = append(v.Differs, "secret arguments were masked in the journal")
	}
	p, err := queue.NewPreview(pol, false, queue.Request{Tool: tool, Args: c.Args, Client: c.Client})
	if err != nil {
		v.Now = "refused"
		v.Differs = append(v.Differs, "arguments refused today: "+err.Error())
		return v
	}
	v.Argv = p.Call.Command.Argv
	d := p.Call.Decision
	v.Now, v.Rule = string(d.Action), d.Rule
	if c.Edit == nil && c.Argv != nil && !slices.Equal(c.Argv, p.Call.Command.Argv) {
		v.Differs = append(v.Differs, "argv differs from the one journaled")
	}
	if c.Decider == journal.ByRule && string(c.Decision) != string(d.Action) {
		rule := c.Rule
		if rule == "" {
			rule = "-"
		}
		v.Differs = append(v.Differs, fmt.Sprintf("decision was %s by rule %s", c.Decision, rule))
	}
	return v
}
