package replay

import (
	"fmt"
	"slices"

	"github.com/assent-sh/assent/config"
	"github.com/assent-sh/assent/journal"
	"github.com/assent-sh/assent/policy"
	"github.com/assent-sh/assent/queue"
)

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
// nothing, and says where the outcome differs from the record: a tool
// gone, arguments now refused, an argv today's templates expand
// differently (for an edited call, the one the agent asked for), and a
// decision that changed. An operator's decision counts as much as a
// rule's: a call the operator denied that a rule now allows is flagged,
// and so is the reverse. This is policy regression over history: run it
// with a new --policy before putting it in force.
func Check(cfg *config.Config, pol *policy.Policy, c journal.Call) Verdict {
	then := thenOf(c)
	v := Verdict{Call: c.ID, Tool: c.Tool, Then: then.String()}
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
	asked := c.Argv
	if c.Edit != nil {
		asked = c.Edit.Before
	}
	if asked != nil && !slices.Equal(asked, v.Argv) {
		what := "argv differs from the one journaled"
		if c.Edit != nil {
			what = "argv differs from the one the agent asked for (the operator edited it then)"
		}
		v.Differs = append(v.Differs, what)
	}
	if why := then.changed(d); why != "" {
		v.Differs = append(v.Differs, why)
	}
	return v
}

// decidedThen is how a journaled call was decided: what policy said and
// who settled it.
type decidedThen struct {
	asked    bool // policy asked (an operator, the timeout or headless mode answered)
	decision journal.Decision
	decider  journal.Decider
	rule     string
	state    journal.Event
}

// thenOf reads a call's decision from its record.
func thenOf(c journal.Call) decidedThen {
	return decidedThen{asked: c.Policy == journal.Ask, decision: c.Decision, decider: c.Decider, rule: c.Rule, state: c.State}
}

func (t decidedThen) String() string {
	s := string(t.decision) + " by " + string(t.decider)
	if t.state == journal.Interrupted {
		s += ", interrupted"
	}
	return s
}

// changed says how today's decision d differs from the recorded one, or
// "" when it does not.
func (t decidedThen) changed(d policy.Decision) string {
	now := string(d.Action)
	if d.Rule != "" {
		now += " by rule " + d.Rule
	}
	switch {
	case t.decider == journal.ByRule && string(t.decision) != string(d.Action):
		then := "a rule"
		if t.rule != "" {
			then = "rule " + t.rule
		}
		return fmt.Sprintf("decision was %s by %s, now %s", t.decision, then, now)
	case t.asked && d.Action != policy.Ask:
		who := "the operator"
		switch t.decider {
		case journal.ByHeadless:
			who = "headless mode (policy asked)"
		case journal.ByTimeout:
			who = "the approval timeout"
		case journal.ByClient:
			who = "the client's withdrawal"
		}
		verb := "denied"
		if t.decision == journal.Allow {
			verb = "approved"
		}
		return fmt.Sprintf("%s by %s, now %s", verb, who, now)
	}
	return ""
}
