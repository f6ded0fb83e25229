package ui

import (
	"time"

	"github.com/assent-sh/assent/queue"
)

// Defaults for Options left at their zero value.
const (
	// DefaultOutputLines is how many lines of output the pane keeps per call.
	DefaultOutputLines = 10000
	// DefaultGrace is how long keys are ignored after a prompt appears by
	// itself: long enough to swallow a keystroke meant for what was on the
	// screen a moment before, short enough not to be noticed.
	DefaultGrace = 400 * time.Millisecond
	// DefaultHistory is how many ended calls the queue list keeps.
	DefaultHistory = queue.DefaultHistory
)

// Options configure the console. Only Queue is required.
type Options struct {
	// Queue is the queue the console watches and acts on.
	Queue *queue.Queue
	// Endpoint is the MCP URL clients connect to, shown in the header and
	// the connect help ("http://127.0.0.1:7323/mcp").
	Endpoint string
	// Token is the bearer token clients send. The header shows only its
	// last four characters; the connect help, opened by the operator, shows
	// it whole so it can be pasted into a client's config.
	Token string
	// TokenFile is the file the token is kept in, shown in the connect
	// help so the operator knows what `assent token --rotate` replaces.
	// Empty when the token did not come from a file.
	TokenFile string
	// Changes delivers changes to the watched tool and policy files. Each
	// is shown to the operator and applied only when the operator confirms.
	// Nil when nothing is watched.
	Changes <-chan Change
	// NoBell keeps the terminal bell quiet when a call starts waiting for
	// the operator; by default it rings.
	NoBell bool
	// Console is the console's name, for `assent stdio --console NAME`,
	// shown in the header; "" when it needs no naming (the default one).
	Console string
	// Confinement says how calls are confined on this machine, for the
	// header: exec.Support's line, such as "sandbox best-effort: landlock
	// v7 · network denied (seccomp, landlock) · subreaper"; "" shows
	// nothing.
	Confinement string
	// Unconfined marks Confinement as a warning: calls run without the
	// kernel sandbox.
	Unconfined bool
	// RememberedFile is where "always allow" rules are saved, named in the
	// always dialog; "" names none.
	RememberedFile string
	// NoNotify sends no desktop notification when a call starts waiting;
	// by default the console sends one the terminal shows (OSC 9 or OSC
	// 777, chosen from TERM, TERM_PROGRAM and VTE_VERSION: see
	// notifierFor), beside the bell.
	NoNotify bool
	// OutputLines is how many lines of output the pane keeps per call
	// (default DefaultOutputLines). Older lines are dropped.
	OutputLines int
	// Grace is how long keys are ignored after a pending call or a dialog
	// appears by itself (default DefaultGrace; negative disables it).
	Grace time.Duration
	// History is how many ended calls the list keeps (default
	// DefaultHistory).
	History int
	// NoColor renders without colours or text attributes. Run also sets it
	// when the NO_COLOR environment variable is set and not empty.
	NoColor bool
}

// Change is a change to the watched tool and policy files, waiting for the
// operator. The file watcher builds it; the console only shows it and, on
// confirmation, calls Apply.
type Change struct {
	// Summary lists the differences for people, one per line ("+ tool x",
	// "- rule y", "~ tool z: command changed"). The console escapes every
	// line before it is shown.
	Summary []string
	// Err says why the new files do not load. The old tools and rules stay
	// in force and Apply is nil: there is nothing to confirm.
	Err error
	// Apply swaps in the new tools and policy. The console calls it, from a
	// command and never from Update, only after the operator confirms.
	Apply func() error
}

// withDefaults fills the zero fields of o.
func (o Options) withDefaults() Options {
	if o.OutputLines <= 0 {
		o.OutputLines = DefaultOutputLines
	}
	if o.Grace == 0 {
		o.Grace = DefaultGrace
	}
	if o.Grace < 0 {
		o.Grace = 0
	}
	if o.History <= 0 {
		o.History = DefaultHistory
	}
	return o
}
