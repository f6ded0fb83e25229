package exec

import (
	"os"
	"time"
)

// MinTimeout is the shortest timeout a command may have. Anything shorter
// could end a program before it has had a chance to start.
const MinTimeout = 100 * time.Millisecond

// Options configure a Local runner. The zero value of every field means its
// documented default, so Options{} is a working configuration.
type Options struct {
	// Grace is how long a process group has between SIGTERM and SIGKILL
	// when a timeout, a cancellation or an overflow ends it. Default 2 s.
	Grace time.Duration
	// DefaultTimeout applies to a command that sets none. Default 30 s.
	DefaultTimeout time.Duration
	// MaxTimeout is the ceiling every command's timeout is clamped to; an
	// operator may raise it. Default 5 min.
	MaxTimeout time.Duration
	// MaxOutput is the per-stream cap for a command that sets none.
	// Default 1 MiB.
	MaxOutput int64
	// Path is the PATH every child gets, whatever the server's own PATH
	// says. Default "/usr/local/bin:/usr/bin:/bin".
	Path string
	// Home is the HOME every child gets. Default: the server's home
	// directory, or "/" when it has none.
	Home string
	// Lang is the LANG and LC_ALL every child gets. Default "C.UTF-8".
	Lang string
	// WaitDelay bounds how long a run waits, once its process group is gone,
	// for output pipes still held open by processes that left the group
	// (and for stdin to be taken). Past it the pipes are closed and Run
	// returns. Default 1 s.
	WaitDelay time.Duration
	// FlushInterval is how long live output may gather before it is handed
	// to the callback; a chatty child costs one callback per interval, not
	// one per write. Default 25 ms.
	FlushInterval time.Duration
	// NewSession starts every child in a session of its own rather than
	// only a process group of its own, so it has no controlling terminal:
	// it cannot open the server's terminal through /dev/tty to prompt or to
	// write over the console, and never stops reading it from the
	// background. A server that owns a terminal (the console) should set
	// it. It is off by default because where the kernel's autogroup is on,
	// a new session also means a new scheduling group: on a busy 2-core
	// machine that added from 0.01 ms to over 0.5 ms per run. Unix only.
	NewSession bool
	// Sandbox says what happens to a command's Sandbox: confined as far as
	// the kernel allows (the default), required (a call that cannot be
	// confined is refused) or off. It is settings.sandbox.
	Sandbox SandboxMode
	// Containment is how a call's processes are ended with it; the zero
	// value picks the best this system offers (see Containment).
	Containment Containment
	// ForeignChildren says this process starts children of its own, not
	// through the runner, in its own process group, which the subreaper's
	// sweeps must then leave alone: every process of that group is taken
	// for one of them. A call's process that joins the group (setpgid to
	// this process's group, open to it while the calls share this
	// process's session) and is orphaned then outlives its call. Off, such
	// a process is ended like any other that left its call's group, and a
	// sweep with no other run live reaps every exited child but a live
	// run's leader, whatever started it. A server whose only children are
	// the runner's leaves it off.
	ForeignChildren bool
}

// Defaults for Options fields left at zero.
const (
	defaultGrace         = 2 * time.Second
	defaultTimeout       = 30 * time.Second
	defaultMaxTimeout    = 5 * time.Minute
	defaultMaxOutput     = 1 << 20
	defaultPath          = "/usr/local/bin:/usr/bin:/bin"
	defaultLang          = "C.UTF-8"
	defaultWaitDelay     = time.Second
	defaultFlushInterval = 25 * time.Millisecond
)

// Local runs commands as child processes of this one. One Local serves any
// number of concurrent runs. Besides its options it keeps what is built
// once and shared by runs (sandbox rules, the empty network namespace,
// /dev/null); Close releases it.
type Local struct {
	opts    Options
	baseEnv []string // see environ
	os      osState
	// skipPathCheck turns off the re-check of path arguments, so a test can
	// show the sandbox alone holding a swapped path. Tests only.
	skipPathCheck bool
	// simulate makes the runner behave as on a system that lacks what it
	// names. Tests only; set before the first run.
	simulate simulated
}

// simulated names what a test makes a Local do without.
type simulated struct {
	noLandlock bool // a kernel without Landlock
	noRawFork  bool // no fork of the runner's own (no clone3, or another architecture)
	noStage    bool // no staging of children's descriptors (no CLOSE_RANGE_UNSHARE)
	// stageAlways stages every start's descriptors, however low they
	// are: what a process holding many descriptors does.
	stageAlways bool
	busy        bool // every run finds others waiting (see ownPollUpTo)
}

// Local is the real Runner.
var _ Runner = (*Local)(nil)

// NewLocal returns a runner with o's zero fields set to their defaults. The
// default timeout is clamped into [MinTimeout, MaxTimeout] like any other.
func NewLocal(o Options) *Local {
	if o.Grace <= 0 {
		o.Grace = defaultGrace
	}
	if o.MaxTimeout <= 0 {
		o.MaxTimeout = defaultMaxTimeout
	}
	o.MaxTimeout = max(o.MaxTimeout, MinTimeout)
	if o.DefaultTimeout <= 0 {
		o.DefaultTimeout = defaultTimeout
	}
	o.DefaultTimeout = min(max(o.DefaultTimeout, MinTimeout), o.MaxTimeout)
	if o.MaxOutput <= 0 {
		o.MaxOutput = defaultMaxOutput
	}
	if o.Path == "" {
		o.Path = defaultPath
	}
	if o.Home == "" {
		o.Home = "/"
		if h, err := os.UserHomeDir(); err == nil && h != "" {
			o.Home = h
		}
	}
	if o.Lang == "" {
		o.Lang = defaultLang
	}
	if o.WaitDelay <= 0 {
		o.WaitDelay = defaultWaitDelay
	}
	if o.FlushInterval <= 0 {
		o.FlushInterval = defaultFlushInterval
	}
	if o.Sandbox == "" {
		o.Sandbox = SandboxBestEffort
	}
	l := &Local{opts: o, baseEnv: baseEnviron(o)}
	l.os.init(l)
	return l
}

// Close releases what the runner built for its runs: the sandboxes' rules
// and the namespace. Runs still going are not affected; runs started after
// Close build what they need again.
func (l *Local) Close() error {
	l.os.close()
	return nil
}

// Timeout returns the timeout a command asking for d runs with: the default
// for zero, otherwise d clamped into [MinTimeout, MaxTimeout]. Callers use it
// to tell an operator or an agent what limit actually applied.
func (l *Local) Timeout(d time.Duration) time.Duration {
	if d <= 0 {
		return l.opts.DefaultTimeout
	}
	return min(max(d, MinTimeout), l.opts.MaxTimeout)
}

// MaxOutput returns the per-stream cap a command asking for n runs with: the
// default for zero or less, n otherwise.
func (l *Local) MaxOutput(n int64) int64 {
	if n <= 0 {
		return l.opts.MaxOutput
	}
	return n
}
