package queue

import (
	"github.com/assent-sh/assent/exec"
	"github.com/assent-sh/assent/journal"
	"github.com/assent-sh/assent/policy"
)

// record appends a journal record for the call. Any failure is a
// JournalError: the queue acts only on what it could record.
func (q *Queue) record(c *Call, r journal.Record) error {
	r.Call = q.callID(c.ID)
	r.Secrets = c.Secrets
	if _, err := q.opts.Journal.Append(r); err != nil {
		return &JournalError{err}
	}
	return nil
}

// withCommand fills the record's command fields.
func withCommand(r journal.Record, cmd exec.Command) journal.Record {
	r.Path, r.Argv, r.Cwd, r.Env = cmd.Path, cmd.Argv, cmd.Dir, cmd.Env
	if cmd.Stdin != "" {
		r.Stdin = journal.NewBlob([]byte(cmd.Stdin), int64(len(cmd.Stdin)))
	}
	r.CommandHash = cmd.Hash()
	return r
}

// journalDecision maps a policy action to the journal's words.
func journalDecision(a policy.Action) journal.Decision {
	switch a {
	case policy.Allow:
		return journal.Allow
	case policy.Deny:
		return journal.Deny
	}
	return journal.Ask
}

// journalDecider maps who decided to the journal's words.
func journalDecider(d Decider) journal.Decider {
	switch d {
	case ByRule:
		return journal.ByRule
	case ByOperator:
		return journal.ByOperator
	case ByTimeout:
		return journal.ByTimeout
	case ByHeadless:
		return journal.ByHeadless
	case ByClient:
		return journal.ByClient
	}
	return journal.Decider(d)
}

// finishedRecord describes how a run ended.
func finishedRecord(c *Call, res exec.Result) journal.Record {
	r := journal.Record{
		Event:       journal.Finished,
		Exit:        journal.ExitCode(res.ExitCode),
		Signal:      res.Signal,
		Duration:    res.Duration,
		TimedOut:    res.TimedOut,
		Error:       res.StartError,
		Stdout:      journal.NewBlob(res.Stdout.Data, res.Stdout.Bytes),
		Stderr:      journal.NewBlob(res.Stderr.Data, res.Stderr.Bytes),
		CommandHash: c.Hash,
	}
	switch {
	case c.Killed:
		r.Reason = "killed by the operator"
	case res.Cancelled:
		r.Reason = "cancelled: the client withdrew the call or assent shut down"
	}
	return r
}
