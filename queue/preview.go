package queue

import (
	"errors"

	"github.com/assent-sh/assent/config"
	"github.com/assent-sh/assent/policy"
)

// Preview is a call checked and decided, but not run: what Submit would
// run and what policy says of it. It is the one place a call's policy
// input is built and decided, for Submit, `assent explain` and `assent
// replay --dry-run` alike.
type Preview struct {
	// Call is the call as Submit would hold it: its arguments, checked
	// values, secrets, the exact command and its hash, and the policy's
	// decision (for an ask, why it asks). Its Status is Received.
	Call Call
	// Decider is who the decision is by: ByRule for a rule's allow or
	// deny, ByHeadless when headless mode turned an ask into a deny, and ""
	// when an operator must answer.
	Decider Decider
	// Input is the call as policy saw it.
	Input policy.Input
}

// NewPreview expands req with its tool and decides it with pol; with
// headless, an ask becomes a deny. The error is the tool's refusal of the
// arguments (*config.ArgError); the call is then still filled in as far as
// it goes, secrets included, so it can be shown masked.
func NewPreview(pol *policy.Policy, headless bool, req Request) (Preview, error) {
	if req.Tool == nil {
		return Preview{}, errors.New("queue: request has no tool")
	}
	t := req.Tool
	c := Call{Tool: t.Name, ReadOnly: t.ReadOnly, Shell: t.Shell,
		Client: req.Client, Session: req.Session, Origin: req.Origin, ReplayOf: req.ReplayOf, Args: req.Args, Status: Received}
	for _, p := range t.Params {
		if p.Secret {
			c.SecretParams = append(c.SecretParams, p.Name)
		}
	}
	exp, err := t.Prepare(req.Args)
	if err != nil {
		c.Secrets = secretArgs(req)
		c.OutputSecrets = config.SecretsForOutput(c.Secrets)
		return Preview{Call: c}, err
	}
	c.Values, c.Secrets, c.Command, c.Hash = exp.Values, exp.Secrets, exp.Command, exp.Command.Hash()
	c.SecretSpans, c.OutputSecrets = exp.SecretSpans, exp.SecretsForOutput()
	in := c.ruleInput()
	in.Paths = exp.Paths
	c.Decision = pol.Decide(in)
	p := Preview{Call: c, Input: in}
	switch {
	case c.Decision.Action != policy.Ask:
		p.Decider = ByRule
	case headless:
		p.Call.Decision, p.Decider = c.Decision.Headless(), ByHeadless
	}
	return p, nil
}

// Preview is NewPreview with the queue's policy in force and its mode.
func (q *Queue) Preview(req Request) (Preview, error) {
	return NewPreview(q.Policy(), q.opts.Headless, req)
}

// ruleInput is what a remembered rule is proposed from: the call's tool,
// arguments and client.
func (c Call) ruleInput() policy.Input {
	return policy.Input{Tool: c.Tool, ReadOnly: c.ReadOnly, Shell: c.Shell, Args: c.Values,
		Path: c.Command.Path, Argv: c.Command.Argv, Client: c.Client}
}

// secretArgs collects the text of secret parameters from raw arguments,
// for masking a call whose expansion failed.
func secretArgs(req Request) []string {
	var out []string
	for _, p := range req.Tool.Params {
		if p.Secret {
			out = append(out, config.SecretTexts(req.Args[p.Name])...)
		}
	}
	return out
}
