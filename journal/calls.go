package journal

import (
	"time"
)

// Call is the life of one call folded from its records: what was asked, what
// was decided and by whom, what ran and how it ended. `assent log` lists
// Calls and replay re-submits them.
type Call struct {
	ID string `json:"call"`
	// Segment is the segment the call's records are in: ids are unique
	// within one, and a call never spans two.
	Segment string         `json:"segment,omitempty"`
	Time    time.Time      `json:"time"` // of its first record
	Tool    string         `json:"tool,omitempty"`
	Client  string         `json:"client,omitempty"`
	Session string         `json:"session,omitempty"`
	Args    map[string]any `json:"args,omitempty"`
	// ReplayOf is the id of the call this one replayed, if it did.
	ReplayOf string `json:"replay_of,omitempty"`
	// Path, Argv and Cwd are the command as it last stood: after an edit,
	// the edited one.
	Path string   `json:"path,omitempty"`
	Argv []string `json:"argv,omitempty"`
	Cwd  string   `json:"cwd,omitempty"`
	// Policy is what the policy decided before anyone else: Ask for a call
	// that waited for an operator or that headless mode denied, even when
	// the operator (or the timeout, or the client) settled it.
	Policy Decision `json:"policy,omitempty"`
	// Decision, Decider, Rule and Reason are from the last Decided record.
	Decision Decision `json:"decision,omitempty"`
	Decider  Decider  `json:"decider,omitempty"`
	Rule     string   `json:"rule,omitempty"`
	Reason   string   `json:"reason,omitempty"`
	Edit     *Edit    `json:"edit,omitempty"`
	// State is the last lifecycle event: Received, Decided, Started,
	// Finished or Interrupted.
	State    Event         `json:"state"`
	Exit     *int          `json:"exit,omitempty"`
	Signal   string        `json:"signal,omitempty"`
	Duration time.Duration `json:"duration_ns,omitempty"`
	TimedOut bool          `json:"timed_out,omitempty"`
	Error    string        `json:"error,omitempty"`
	// Confinement is how the run was confined, from its finished record.
	Confinement string `json:"confinement,omitempty"`
	Stdout      *Blob  `json:"stdout,omitempty"`
	Stderr      *Blob  `json:"stderr,omitempty"`
	// Ending is how the call ended: as the record that ended it says, or
	// for a journal written before records said so, the legacy reading
	// (legacy.go). "" while it has not ended, and when it was interrupted.
	Ending Ending `json:"ending,omitempty"`
	// Events are the call's records in order.
	Events []Record `json:"events"`
}

// Read returns every record of the journal at path (a directory or a
// single file) that describes a call or a recovery, in time order: the
// records only verification needs are left out. It holds the whole journal
// in memory; `assent log` and `assent replay` stream with a CallReader
// instead.
func Read(path string) ([]Record, error) {
	return readAll(path, ReadOptions{})
}

// Calls folds records into calls, in the order each call first appears.
// Records that belong to no call (Recovered) are skipped.
func Calls(records []Record) []Call {
	var calls []Call
	index := make(map[callKey]int)
	for _, r := range records {
		if r.Call == "" {
			continue
		}
		k := callKey{r.Segment, r.Call}
		i, seen := index[k]
		if !seen {
			i = len(calls)
			index[k] = i
			calls = append(calls, newCall(r))
		}
		calls[i].add(r, true)
	}
	return calls
}

// callKey names a call across segments.
type callKey struct{ segment, call string }

func newCall(first Record) Call {
	return Call{ID: first.Call, Segment: first.Segment, Time: first.Time}
}

// add folds one record into c, and keeps it in c.Events if events. A field
// a record carries replaces the one before; a record that leaves it empty
// changes nothing.
func (c *Call) add(r Record, events bool) {
	if events {
		c.Events = append(c.Events, r)
	}
	set(&c.Tool, r.Tool)
	set(&c.Client, r.Client)
	set(&c.Session, r.Session)
	if r.Args != nil {
		c.Args = r.Args
	}
	set(&c.ReplayOf, r.ReplayOf)
	set(&c.Path, r.Path)
	if r.Argv != nil {
		c.Argv = r.Argv
	}
	set(&c.Cwd, r.Cwd)
	switch r.Event {
	case Decided:
		c.Decision, c.Decider, c.Rule, c.Reason = r.Decision, r.Decider, r.Rule, r.Reason
		if c.Policy == "" {
			c.Policy = policyDecision(r)
		}
	case Edited:
		c.Edit = r.Edit
		if r.Edit != nil && r.Argv == nil {
			c.Argv = r.Edit.After
		}
	case Finished:
		c.Exit, c.Signal, c.Duration, c.TimedOut = r.Exit, r.Signal, r.Duration, r.TimedOut
		c.Confinement = r.Confinement
		c.Stdout, c.Stderr = r.Stdout, r.Stderr
	}
	set(&c.Error, r.Error)
	switch {
	case r.Ending != "":
		c.Ending = r.Ending
	case ends(r.Event, r.Decision, r.Ending):
		c.Ending = legacyEnding(r)
	}
	if r.Event != Output && r.Event != Edited {
		c.State = r.Event
	}
}

func set(field *string, value string) {
	if value != "" {
		*field = value
	}
}

// ended reports whether the call's records so far end it.
func (c *Call) ended() bool { return c.Ending != "" || c.State == Interrupted }

// policyDecision is what the first Decided record of a call says the policy
// decided: a rule's own decision, or ask when someone or something other
// than a rule answered (headless mode denies only what would have asked).
func policyDecision(r Record) Decision {
	switch r.Decider {
	case ByRule:
		return r.Decision
	case ByHeadless, ByOperator, ByTimeout, ByClient, ByShutdown:
		return Ask
	}
	return ""
}
