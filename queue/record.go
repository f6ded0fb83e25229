package queue

import (
	"github.com/assent-sh/assent/config"
	"github.com/assent-sh/assent/exec"
	"github.com/assent-sh/assent/journal"
)

// record appends journal records for the call, in one write. Any failure
// is a JournalError: the queue acts only on what it could record. The
// command and arguments in rs are already masked by position (journaled);
// the journal masks the secrets long enough to find in output, the reason
// and the error.
func (q *Queue) record(c *Call, rs ...journal.Record) error {
	for i := range rs {
		rs[i].Call = q.JournalID(c.ID)
		rs[i].Secrets = c.OutputSecrets
	}
	if err := q.opts.Journal.AppendAll(rs...); err != nil {
		return &JournalError{err}
	}
	return nil
}

// journaled fills the journal's forms of a call with secrets: every word,
// env value and stdin byte a secret parameter filled, and every secret
// argument, replaced by the journal's token for the value. Nothing else
// changes, so a value the agent merely repeated stays readable.
func (q *Queue) journaled(c *Call, t *config.Tool) error {
	if len(c.Secrets) == 0 {
		return nil
	}
	var failed error
	token := func(v string) string {
		tok, err := q.opts.Journal.Token(v)
		if err != nil && failed == nil {
			failed = err
		}
		return tok
	}
	c.journaledArgs = t.MaskedArgs(c.Args, token)
	if c.Command.Path != "" {
		cmd := config.Expansion{Command: c.Command, SecretSpans: c.SecretSpans}.MaskedBy(token)
		c.journaledCmd = &cmd
	}
	if failed != nil {
		return &JournalError{failed}
	}
	return nil
}

// journalArgs are the arguments as the journal keeps them.
func (c Call) journalArgs() map[string]any {
	if c.journaledArgs != nil {
		return c.journaledArgs
	}
	return c.Args
}

// journalCommand is the command as the journal keeps it.
func (c Call) journalCommand() exec.Command {
	if c.journaledCmd != nil {
		return *c.journaledCmd
	}
	return c.Command
}

// withCommand fills the record's command fields from the call's command
// (as the journal keeps it) and its hash, taken once when the command was
// frozen.
func withCommand(r journal.Record, c Call) journal.Record {
	cmd := c.journalCommand()
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
		Confinement: confinementText(res.Confinement),
		Ending:      ending,
		Reason:      EndingReason(ending, c.Command, res),
	}
}

// confinementText is how a run was confined, in the journal's words; ""
// when the runner says nothing of it (a fake in tests).
func confinementText(c exec.Confinement) string {
	if c.Landlock == 0 && c.Network == "" && c.Containment == "" && c.Unconfined == "" && len(c.NetworkBy) == 0 {
		return ""
	}
	return c.String()
}
