package queue

import (
	"errors"
	"fmt"
	"slices"

	"github.com/assent-sh/assent/config"
	"github.com/assent-sh/assent/policy"
)

// The operator's actions. Each may be called from any goroutine; the first
// decision on a pending call wins, and a later one returns a
// *ResolvedError saying how the call was settled.

// Approve runs a pending call as it was shown.
func (q *Queue) Approve(id ID) error {
	return q.resolve(id, resolution{approve: true, decider: ByOperator})
}

// Deny refuses a pending call; the agent receives reason.
func (q *Queue) Deny(id ID, reason string) error {
	return q.resolve(id, resolution{decider: ByOperator, reason: reason})
}

// ApproveEdited runs argv, fed stdin, instead of the command shown (pass
// the call's own stdin to leave it as it was). The edit is a new command:
// it must be non-empty and free of NUL bytes, and a changed program is
// resolved again in PATH; it is journaled beside the original.
func (q *Queue) ApproveEdited(id ID, argv []string, stdin string) error {
	c, err := q.Call(id)
	if err != nil {
		return err
	}
	if len(argv) == 0 {
		return errors.New("the edited command is empty")
	}
	if len(c.Secrets) > 0 {
		// Its secrets are masked wherever it is shown, so an edit could
		// not be reviewed for what it holds, and the journal could not
		// tell a secret in it from text the operator typed.
		return errors.New("a call with secret values cannot be edited: approve or deny it as it is")
	}
	cmd := c.Command
	cmd.Argv, cmd.Stdin = slices.Clone(argv), stdin
	if argv[0] != c.Command.Argv[0] {
		path, err := config.ResolveProgram(argv[0], q.opts.PATH)
		if err != nil {
			return fmt.Errorf("edited command: %w", err)
		}
		cmd.Path = path
	}
	if err := cmd.Validate(); err != nil {
		return fmt.Errorf("edited command: %w", err)
	}
	if err := config.CheckLimits(cmd.Argv); err != nil {
		return fmt.Errorf("edited command: %w", err)
	}
	return q.resolve(id, resolution{approve: true, decider: ByOperator, edited: &cmd})
}

// Narrowest returns the narrowest rule that would allow the call again:
// this tool with exactly these argument values. The console shows it, may
// widen it, and passes it to ApproveRemember.
func (q *Queue) Narrowest(id ID) (policy.Rule, error) {
	c, err := q.Call(id)
	if err != nil {
		return policy.Rule{}, err
	}
	return policy.Narrowest(c.ruleInput()), nil
}

// ApproveRemember approves a pending call and remembers rule: for this
// session, or in the remembered-rules file when always is set. The call is
// approved even when saving the rule fails; the error then says so.
func (q *Queue) ApproveRemember(id ID, rule policy.Rule, always bool) error {
	q.mu.Lock()
	e := q.calls[id]
	var in policy.Input
	if e != nil {
		in = e.input
	}
	q.mu.Unlock()
	if e == nil {
		return fmt.Errorf("call %s: %w", id, ErrUnknownCall)
	}
	if !rule.Matches(in) {
		return errors.New("the rule does not cover this call (a widened value must still match every value the call has): widen it again, or approve without remembering")
	}
	if always {
		c, err := q.Call(id)
		if err != nil {
			return err
		}
		for _, s := range c.Secrets {
			if rule.Mentions(s) {
				return errors.New("the rule holds the value of a secret parameter, which must not be written to the remembered-rules file: widen that value to a glob, or allow for this session only")
			}
		}
	}
	if err := q.resolve(id, resolution{approve: true, decider: ByOperator,
		remember: &remembered{rule, always}}); err != nil {
		return err
	}
	p := q.Policy()
	save := p.RememberSession
	if always {
		save = p.RememberAlways
	}
	if err := save(rule); err != nil {
		return fmt.Errorf("approved, but the rule was not remembered: %w", err)
	}
	return nil
}

// Kill ends a running call (or one approved and waiting for a slot): its
// process group gets SIGTERM, then SIGKILL after the grace period.
func (q *Queue) Kill(id ID) error {
	q.mu.Lock()
	defer q.mu.Unlock()
	e := q.calls[id]
	if e == nil {
		return fmt.Errorf("call %s: %w", id, ErrUnknownCall)
	}
	if s := e.call.Status; s != Running && s != Approved {
		return &ResolvedError{id, s, e.call.Decider}
	}
	e.call.Killed = true
	if e.kill != nil {
		e.kill(errKilled)
	}
	return nil
}

// Call returns a copy of the call with the given id.
func (q *Queue) Call(id ID) (Call, error) {
	q.mu.Lock()
	defer q.mu.Unlock()
	e := q.calls[id]
	if e == nil {
		return Call{}, fmt.Errorf("call %s: %w", id, ErrUnknownCall)
	}
	return e.call.clone(), nil
}

// resolve settles a pending call with r, if no one has yet.
func (q *Queue) resolve(id ID, r resolution) error {
	q.mu.Lock()
	defer q.mu.Unlock()
	e := q.calls[id]
	if e == nil {
		return fmt.Errorf("call %s: %w", id, ErrUnknownCall)
	}
	if e.claim != nil && !e.call.Status.Ended() {
		status := Denied
		switch {
		case e.claim.approve:
			status = Approved
		case e.claim.decider == ByClient:
			status = Cancelled
		}
		return &ResolvedError{id, status, e.claim.decider}
	}
	if e.call.Status != Pending {
		return &ResolvedError{id, e.call.Status, e.call.Decider}
	}
	q.claimLocked(e, r)
	return nil
}

// ParseEdit reads an operator's edit of a command, written in the quoted
// form the console shows (exec.Quote), back into argv words. Shell syntax
// is refused: an edit is still one program with its arguments.
func ParseEdit(text string) ([]string, error) {
	return config.SplitWords(text)
}
