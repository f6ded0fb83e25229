package journal

import (
	"time"
)

// Call is the life of one call folded from its records: what was asked, what
// was decided and by whom, what ran and how it ended. `assent log` lists
// Calls and replay re-submits them.
type Call struct {
	ID      string         `json:"call"`
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
	Stdout   *Blob         `json:"stdout,omitempty"`
	Stderr   *Blob         `json:"stderr,omitempty"`
	// Ending is how the call ended, as its last record says; "" while it
	// has not ended (or was interrupted).
	Ending Ending `json:"ending,omitempty"`
	// Events are the call's records in order.
	Events []Record `json:"events"`
}

// Calls folds records into calls, in the order each call first appears.
// Records that belong to no call (Recovered) are skipped.
func Calls(records []Record) []Call {
	var calls []Call
	index := make(map[string]int)
	for _, r := range records {
		if r.Call == "" {
			continue
		}
		i, seen := index[r.Call]
		if !seen {
			i = len(calls)
			index[r.Call] = i
			calls = append(calls, Call{ID: r.Call, Time: r.Time})
		}
		calls[i].add(r)
	}
	return calls
}

// add folds one record into c. A field a record carries replaces the one
// before; a record that leaves it empty changes nothing.
func (c *Call) add(r Record) {
	c.Events = append(c.Events, r)
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
	case Edited:
		c.Edit = r.Edit
		if r.Edit != nil && r.Argv == nil {
			c.Argv = r.Edit.After
		}
	case Finished:
		c.Exit, c.Signal, c.Duration, c.TimedOut = r.Exit, r.Signal, r.Duration, r.TimedOut
		c.Stdout, c.Stderr = r.Stdout, r.Stderr
	}
	set(&c.Error, r.Error)
	if r.Ending != "" {
		c.Ending = r.Ending
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
