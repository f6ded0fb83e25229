package queue

import (
	"github.com/assent-sh/assent/exec"
	"github.com/assent-sh/assent/journal"
)

// record appends a journal record for the call. Any failure is a
// JournalError: the queue acts only on what it could record.
func (q *Queue) record(c *Call, r journal.Record) error {
	r.Call = q.JournalID(c.ID)
	r.Secrets = c.Secrets
	if _, err := q.opts.Journal.Append(r); err != nil {
		return &JournalError{err}
	}
	return nil
}

// withCommand fills the record's command fields from the call's command
// and its hash, taken once when the command was frozen.
func withCommand(r journal.Record, c Call) journal.Record {
	cmd := c.Command
	r.Path, r.Argv, r.Cwd, r.Env = cmd.Path, cmd.Argv, cmd.Dir, cmd.Env
	if cmd.Stdin != "" {
		r.Stdin = journal.NewBlob([]byte(cmd.Stdin), int64(len(cmd.Stdin)))
	}
	r.CommandHash = c.Hash
	return r
}

// finishedRecord describes how a run ended.
func finishedRecord(c Call, res exec.Result, ending Ending) journal.Record {
	return journal.Record{
		Event:       journal.Finished,
		Exit:        journal.ExitCode(res.ExitCode),
		Signal:      res.Signal,
		Duration:    res.Duration,
		TimedOut:    res.TimedOut,
		Error:       res.StartError,
		Stdout:      journal.NewBlob(res.Stdout.Data, res.Stdout.Bytes),
		Stderr:      journal.NewBlob(res.Stderr.Data, res.Stderr.Bytes),
		CommandHash: c.Hash,
		Ending:      ending,
		Reason:      EndingReason(ending, c.Command, res),
	}
}
