package journal

import (
	"time"
)

// Event names the step of a call that a record describes.
type Event string

const (
	// Received is a call as it arrived: tool, client, arguments and the
	// command they expanded to.
	Received Event = "received"
	// Decided is a decision on the call (allow, deny or ask) and who made it.
	// It is written before the process starts.
	Decided Event = "decided"
	// Edited is an operator's change to the argv, with both versions.
	Edited Event = "edited"
	// Started is written just before the process is started.
	Started Event = "started"
	// Output is an optional summary of output while a call runs.
	Output Event = "output"
	// Finished is how the run ended: exit, signal, duration and output.
	Finished Event = "finished"
	// Interrupted marks a call that had not ended when the journal was last
	// closed. Its outcome is unknown and it is never re-run by itself.
	Interrupted Event = "interrupted"
	// Recovered notes what opening the journal repaired or found. It belongs
	// to no call.
	Recovered Event = "recovered"

	// Opened is the first record of every file: it names the file's segment
	// and part. In a file after a segment's first, its Prev is the hash of
	// the previous file's last record, so the files form one chain.
	Opened Event = "opened"
	// Sealed is a seal: Seal is a keyed MAC over the segment, the seal's seq
	// and the hash of the record before it, so a chain recomputed by someone
	// without the key no longer matches. Open lists the calls not yet ended.
	Sealed Event = "sealed"
	// Closed is the seal written when a segment is closed cleanly; nothing
	// follows it.
	Closed Event = "closed"
)

// bookkeeping reports whether records of this event are the journal's own,
// for verifying it, rather than about a call or a recovery.
func (e Event) bookkeeping() bool { return e == Opened || e == Sealed || e == Closed }

// Decision is a verdict on a call, in the journal's words.
type Decision string

const (
	// Allow lets the call run.
	Allow Decision = "allow"
	// Deny refuses the call; it ends the call's life.
	Deny Decision = "deny"
	// Ask means a human must decide; the call waits.
	Ask Decision = "ask"
)

// Decider says who or what settled a call. It is the project's one
// vocabulary for it: the queue, the console, the MCP results and `assent
// log` all use these words. Values other than these constants are kept as
// they are, so the journal never refuses a record it does not know.
type Decider string

const (
	// ByRule is a policy rule; the record's Rule names it.
	ByRule Decider = "rule"
	// ByOperator is a human at the console.
	ByOperator Decider = "operator"
	// ByTimeout is the approval timeout passing with no answer.
	ByTimeout Decider = "timeout"
	// ByHeadless is headless mode, where ask becomes deny.
	ByHeadless Decider = "headless"
	// ByClient is the client cancelling or going away while the call waited.
	// Journals written before this vocabulary say "cancelled" for it.
	ByClient Decider = "client"
	// ByShutdown is assent closing with the call still waiting.
	ByShutdown Decider = "shutdown"
	// ByValidation is the tool's argument checks (or a command that no
	// longer matched what was approved).
	ByValidation Decider = "validation"
	// ByLimit is the limits on running and waiting calls.
	ByLimit Decider = "limit"
	// ByJournal is a failed journal, which stops every new call.
	ByJournal Decider = "journal"
)

// Ending is how a call ended, in one word: the one account that the MCP
// result, the console, the server's log and `assent log` all give.
type Ending string

const (
	// Exited: the program ran and exited by itself, with any exit code.
	Exited Ending = "exited"
	// KilledByOperator: the operator killed the running (or approved) call.
	KilledByOperator Ending = "killed"
	// TimedOut: the tool's timeout ended the run.
	TimedOut Ending = "timed-out"
	// KilledAtCap: output passed the cap under on_overflow: kill.
	KilledAtCap Ending = "killed-at-cap"
	// CancelledByClient: the client withdrew the call while it ran, or was
	// approved and waiting to start.
	CancelledByClient Ending = "cancelled"
	// ShutDown: assent shut down while the call ran.
	ShutDown Ending = "shut-down"
	// NotStarted: the program could not be started (gone, not executable,
	// changed since load).
	NotStarted Ending = "not-started"
	// Denied: a rule, the operator, the approval timeout or headless mode
	// refused the call.
	Denied Ending = "denied"
	// Refused: the call never reached a decision (its arguments, a limit, the
	// journal).
	Refused Ending = "refused"
	// Withdrawn: the client withdrew the call while it waited for an operator.
	Withdrawn Ending = "withdrawn"
)

// Ran reports whether a process was started for a call that ended so.
func (e Ending) Ran() bool {
	switch e {
	case Exited, KilledByOperator, TimedOut, KilledAtCap, CancelledByClient, ShutDown:
		return true
	}
	return false
}

// Edit is an operator's change to a command: the argv shown and the argv
// approved instead. Both are kept so an audit sees what the agent asked for.
type Edit struct {
	Before []string `json:"before"`
	After  []string `json:"after"`
}

// Record is one line of the journal. Append fills Seq, Time, Prev and Hash;
// every other field is the caller's, and empty fields are left out of the
// line. Field order here is the order on disk.
type Record struct {
	// Seq numbers records from 1 with no gaps.
	Seq int64 `json:"seq"`
	// Time is when the record was appended, in UTC.
	Time time.Time `json:"time"`
	// Call is the id of the call the record belongs to; empty for
	// Recovered records.
	Call  string `json:"call,omitempty"`
	Event Event  `json:"event"`

	Tool    string `json:"tool,omitempty"`
	Client  string `json:"client,omitempty"`
	Session string `json:"session,omitempty"`
	// Args are the call's arguments as the client sent them. Read returns
	// numbers as json.Number so they round-trip exactly.
	Args map[string]any `json:"args,omitempty"`
	// ReplayOf is, for a replayed call, the id of the journaled call it
	// replays.
	ReplayOf string `json:"replay_of,omitempty"`
	// Path is the absolute program path that runs (or would run).
	Path string   `json:"path,omitempty"`
	Argv []string `json:"argv,omitempty"`
	Cwd  string   `json:"cwd,omitempty"`
	Env  []string `json:"env,omitempty"`
	// Stdin is what the command feeds the child, stored like output.
	Stdin *Blob `json:"stdin,omitempty"`
	// CommandHash is the hash of the frozen command that was approved, so an
	// audit can tell that what ran is what was shown.
	CommandHash string `json:"command_hash,omitempty"`

	Decision Decision `json:"decision,omitempty"`
	Decider  Decider  `json:"decider,omitempty"`
	// Rule is the id of the rule that decided, when Decider is ByRule.
	Rule string `json:"rule,omitempty"`
	// Reason says why: a decision's reason, or why a call was interrupted,
	// or what recovery found.
	Reason string `json:"reason,omitempty"`
	Edit   *Edit  `json:"edit,omitempty"`
	// Ending says how the call ended, on the record that ends it.
	Ending Ending `json:"ending,omitempty"`

	// Exit is the exit status; a pointer because 0 is a value worth keeping.
	Exit     *int          `json:"exit,omitempty"`
	Signal   string        `json:"signal,omitempty"`
	Duration time.Duration `json:"duration_ns,omitempty"`
	TimedOut bool          `json:"timed_out,omitempty"`
	// Confinement says how the run was confined (the sandbox and how its
	// processes were held), or why it ran unconfined.
	Confinement string `json:"confinement,omitempty"`
	// Error says why a run failed to start or ended abnormally.
	Error  string `json:"error,omitempty"`
	Stdout *Blob  `json:"stdout,omitempty"`
	Stderr *Blob  `json:"stderr,omitempty"`
	// TornBytes is, in a Recovered record, how many bytes of an unfinished
	// last line were cut.
	TornBytes int64 `json:"torn_bytes,omitempty"`

	// Segment is the segment the record belongs to. On disk only Opened
	// records carry it; readers fill it in on every record they return.
	Segment string `json:"segment,omitempty"`
	// Part is, in an Opened record, the file's number within its segment,
	// from 1.
	Part int `json:"part,omitempty"`
	// Open is, in a seal, the calls that had not ended, in the order they
	// began: recovery starts from it instead of from the first record.
	Open []OpenCall `json:"open,omitempty"`
	// Seal is, in a seal, the hex HMAC-SHA-256 that vouches for the chain
	// up to it (see seal.go).
	Seal string `json:"seal,omitempty"`

	// Prev is the Hash of the record before; empty for the first.
	Prev string `json:"prev,omitempty"`
	// Hash is the SHA-256 of this line's bytes without the hash field; see
	// line.go for the exact encoding.
	Hash string `json:"hash,omitempty"`

	// Secrets are values that must not reach the file through the record's
	// free text: every occurrence in the output (stdout, stderr), the reason
	// and the error is replaced by a masked token before it is written. The
	// command, stdin and arguments are masked by the caller, by position
	// (Journal.Token). They are not part of the record and never serialized.
	Secrets []string `json:"-"`
}

// OpenCall is a call that had not ended when a seal was written.
type OpenCall struct {
	Call string `json:"call"`
	// State is its last lifecycle event, which says whether it ran.
	State Event `json:"state"`
}

// ExitCode returns a pointer to code, for filling Record.Exit.
func ExitCode(code int) *int { return &code }
