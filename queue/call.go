package queue

import (
	"errors"
	"fmt"
	"strconv"
	"time"

	"github.com/assent-sh/assent/config"
	"github.com/assent-sh/assent/exec"
	"github.com/assent-sh/assent/journal"
	"github.com/assent-sh/assent/policy"
)

// ID identifies a call within one queue; the console shows it as #ID.
type ID int64

func (id ID) String() string { return "#" + strconv.FormatInt(int64(id), 10) }

// Status is where a call is in its life.
type Status string

const (
	// Received calls are being checked and decided.
	Received Status = "received"
	// Pending calls wait for an operator.
	Pending Status = "pending"
	// Approved calls are about to start (or wait for a free running slot).
	Approved Status = "approved"
	// Running calls have a process.
	Running Status = "running"
	// Done calls ran to an end; the Result says how (any exit code).
	Done Status = "done"
	// Denied calls were refused by a rule, the operator, the approval
	// timeout or headless mode.
	Denied Status = "denied"
	// Refused calls never reached a decision: invalid arguments, a limit,
	// a failed journal.
	Refused Status = "refused"
	// Cancelled calls were withdrawn by their client while they waited.
	Cancelled Status = "cancelled"
)

// Ended reports whether the status is final.
func (s Status) Ended() bool {
	return s == Done || s == Denied || s == Refused || s == Cancelled
}

// Decider says who or what settled a call: the journal's vocabulary, which
// is the project's one word for it.
type Decider = journal.Decider

// The deciders, as the journal names them.
const (
	ByRule       = journal.ByRule
	ByOperator   = journal.ByOperator
	ByTimeout    = journal.ByTimeout
	ByHeadless   = journal.ByHeadless
	ByClient     = journal.ByClient
	ByShutdown   = journal.ByShutdown
	ByValidation = journal.ByValidation
	ByLimit      = journal.ByLimit
	ByJournal    = journal.ByJournal
)

// Ending is how a call ended, in one word (see journal.Ending). The queue
// works it out once, when the call ends; the MCP result, the server's log,
// the console, the journal and `assent log` all read it from there.
type Ending = journal.Ending

// The endings.
const (
	Exited            = journal.Exited
	KilledByOperator  = journal.KilledByOperator
	TimedOut          = journal.TimedOut
	KilledAtCap       = journal.KilledAtCap
	CancelledByClient = journal.CancelledByClient
	ShutDown          = journal.ShutDown
	NotStarted        = journal.NotStarted
	EndDenied         = journal.Denied
	EndRefused        = journal.Refused
	Withdrawn         = journal.Withdrawn
)

// Request is a call as a front end submits it.
type Request struct {
	// Tool is the tool called, from the current config.
	Tool *config.Tool
	// Args are the arguments as decoded from JSON.
	Args map[string]any
	// Client is the client's name (MCP clientInfo), "" when unknown.
	Client string
	// Session identifies the client's connection, "" when unknown.
	Session string
	// Origin says which front end submitted the call ("mcp", "replay").
	Origin string
	// ReplayOf is the journal id of the call this one replays, for a
	// replayed call.
	ReplayOf string
	// Watch, when set, receives this call's own events as the queue makes
	// them: see Watcher.
	Watch Watcher
}

// Call is a snapshot of one call: what was asked, what would run, and
// where it is in its life. Values handed out by the queue are copies; a
// subscriber may keep them.
type Call struct {
	ID       ID
	Tool     string
	ReadOnly bool
	Shell    bool
	Client   string
	Session  string
	Origin   string
	// ReplayOf is the journal id of the call this one replays, or "".
	ReplayOf string
	// Args are the arguments as the client sent them.
	Args map[string]any
	// Values are each parameter's checked text, as policy saw them.
	Values map[string][]string
	// Secrets are the values of the call's secret parameters, for checks
	// (a rule about to be saved must not hold one); they are never masked
	// wherever they occur, since the agent chooses them.
	Secrets []string
	// SecretSpans say where in Command the secret parameters' values went:
	// only those bytes are masked where the call is shown and journaled.
	SecretSpans []config.SecretSpan
	// OutputSecrets are the secret values long enough to mask in output,
	// wherever output holds one whole, and in text that is not the command
	// (a reason, an account of an ending).
	OutputSecrets []string
	// SecretParams are the names of the tool's secret parameters: where
	// the arguments are shown, these are masked, whole, by name.
	SecretParams []string
	// Command is what runs: the expansion, or the operator's edit of it.
	Command exec.Command
	// Original is the expansion when the operator edited the command.
	Original *exec.Command
	// Hash is Command.Hash(), taken when the call was shown for approval
	// and checked again before it starts.
	Hash string
	// Decision is the policy's verdict (for an ask, why it asks).
	Decision policy.Decision
	Status   Status
	// Decider says who settled the call; Reason says why, for denials and
	// refusals, in words the agent receives.
	Decider Decider
	Reason  string
	// Killed is set when the operator killed the running call.
	Killed bool
	// Ending says how the call ended; "" until it has.
	Ending Ending

	Received time.Time
	Started  time.Time
	Ended    time.Time
	// Result is set once a call that ran has ended.
	Result *exec.Result

	// journaled are the call's arguments and command as the journal
	// keeps them, each secret replaced by its token by position; nil
	// when the call has no secret.
	journaledArgs map[string]any
	journaledCmd  *exec.Command
}

func (c Call) clone() Call {
	if c.Result != nil {
		r := *c.Result
		c.Result = &r
	}
	return c
}

// Outcome is how Submit ended for the front end.
type Outcome struct {
	// Call is the call's final state.
	Call Call
}

// LimitError refuses a call because too many calls are running or waiting.
// It is temporary: the same call may succeed when retried.
type LimitError struct {
	What  string // "running" or "waiting for approval"
	Limit int
}

func (e *LimitError) Error() string {
	return fmt.Sprintf("too many calls %s (limit %d); retry shortly", e.What, e.Limit)
}

// Temporary reports that retrying may succeed.
func (e *LimitError) Temporary() bool { return true }

// JournalError refuses a call because the journal cannot record it: assent
// runs nothing it cannot journal.
type JournalError struct{ Err error }

func (e *JournalError) Error() string {
	return "the journal failed, so assent runs no more calls until it is restarted: " + e.Err.Error()
}

func (e *JournalError) Unwrap() error { return e.Err }

// ErrClosed is returned for calls submitted after the queue closed.
var ErrClosed = errors.New("assent is shutting down and takes no more calls")

// ErrUnknownCall is returned by operator actions on an id the queue does
// not hold.
var ErrUnknownCall = errors.New("no such call")

// ResolvedError is returned by an operator action on a call that was
// already settled: the first decision wins and later ones are no-ops.
type ResolvedError struct {
	ID      ID
	Status  Status
	Decider Decider
}

func (e *ResolvedError) Error() string {
	return fmt.Sprintf("call %s was already %s (by %s)", e.ID, e.Status, e.Decider)
}
