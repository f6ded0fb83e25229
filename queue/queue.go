// Package queue is the life of a call: every call, from any front end,
// goes through Submit, which expands it, asks policy, waits for an operator
// when policy asks, runs it and journals each step. It is the one place a
// call changes state, and it knows nothing of MCP or the terminal: the
// console, headless mode and replay all drive the same queue and watch it
// through subscriptions.
package queue

import (
	"context"
	"errors"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/assent-sh/assent/exec"
	"github.com/assent-sh/assent/journal"
	"github.com/assent-sh/assent/policy"
)

// Defaults for the queue's limits.
const (
	// DefaultMaxRunning bounds the children running at once.
	DefaultMaxRunning = 16
	// DefaultMaxPending bounds the calls waiting for an operator.
	DefaultMaxPending = 64
	// DefaultHistory is how many ended calls the queue keeps, at least,
	// for late subscribers.
	DefaultHistory = 1000
	// DefaultOutputTail is how much of each call's output the queue keeps
	// for late subscribers, in bytes.
	DefaultOutputTail = 256 << 10
)

// Options configure a queue.
type Options struct {
	// Policy decides calls; required. Replace it later with SetPolicy.
	Policy *policy.Policy
	// Runner runs approved commands; required.
	Runner exec.Runner
	// Journal records every step; required. When it fails, the queue
	// refuses new calls.
	Journal *journal.Journal
	// Headless turns every ask into a deny: no one is there to answer.
	Headless bool
	// ApprovalTimeout denies a pending call nobody answered in time; zero
	// waits as long as the client does.
	ApprovalTimeout time.Duration
	// MaxRunning and MaxPending bound running and waiting calls; a call
	// over a bound is refused at once with a retryable error.
	MaxRunning, MaxPending int
	// History is how many ended calls to keep for late subscribers: at
	// least this many, and at most a quarter more.
	History int
	// OutputTail is how much output per call to keep for late subscribers.
	OutputTail int
	// PATH resolves the program of an operator's edited command.
	PATH string
	// RunID prefixes call ids in the journal so ids of separate runs never
	// collide; default the start time.
	RunID string
	// Now is the clock; default time.Now.
	Now func() time.Time
}

// Queue holds calls from submission to their end.
type Queue struct {
	opts   Options
	policy atomic.Pointer[policy.Policy]
	slots  chan struct{} // one token per running call

	mu          sync.Mutex
	closed      bool
	closeReason string
	nextID      ID
	calls       map[ID]*entry
	order       []ID // received order, for snapshots and history trimming
	ended       int  // calls in calls that have ended
	pending     int
	subs        map[*Subscription]struct{}
	wg          sync.WaitGroup // Submit calls in flight
}

// entry is the queue's own record of a call; guarded by Queue.mu.
type entry struct {
	call     Call
	claim    *resolution             // the decision claimed for the pending call
	decision chan resolution         // carries that decision to Submit
	kill     context.CancelCauseFunc // cancels the approved or running call
	tail     Tail
	watch    Watcher      // from the Request; nil when the front end does not watch
	input    policy.Input // the call as policy saw it; set before the call is shared
}

// resolution is an operator's (or the queue's) answer to a pending call.
type resolution struct {
	approve  bool
	decider  Decider
	reason   string
	edited   *exec.Command
	remember *remembered
}

type remembered struct {
	rule   policy.Rule
	always bool
}

// New returns a queue ready for calls.
func New(opts Options) (*Queue, error) {
	switch {
	case opts.Policy == nil:
		return nil, errors.New("queue: a policy is required")
	case opts.Runner == nil:
		return nil, errors.New("queue: a runner is required")
	case opts.Journal == nil:
		return nil, errors.New("queue: a journal is required")
	}
	if opts.MaxRunning <= 0 {
		opts.MaxRunning = DefaultMaxRunning
	}
	if opts.MaxPending <= 0 {
		opts.MaxPending = DefaultMaxPending
	}
	if opts.History <= 0 {
		opts.History = DefaultHistory
	}
	if opts.OutputTail <= 0 {
		opts.OutputTail = DefaultOutputTail
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	if opts.RunID == "" {
		opts.RunID = opts.Now().UTC().Format("20060102T150405")
	}
	q := &Queue{
		opts:  opts,
		slots: make(chan struct{}, opts.MaxRunning),
		calls: map[ID]*entry{},
		subs:  map[*Subscription]struct{}{},
	}
	q.policy.Store(opts.Policy)
	return q, nil
}

// SetPolicy replaces the policy for calls decided from now on.
func (q *Queue) SetPolicy(p *policy.Policy) { q.policy.Store(p) }

// Policy returns the policy in force.
func (q *Queue) Policy() *policy.Policy { return q.policy.Load() }

// RememberedFile returns where "always allow" rules are saved, or "" when
// they cannot be.
func (q *Queue) RememberedFile() string { return q.Policy().Memory().StoreName() }

// JournalPath returns where the journal is written.
func (q *Queue) JournalPath() string { return q.opts.Journal.Path() }

// JournalError returns why the journal failed, or nil while it works. A
// failed journal refuses every new call.
func (q *Queue) JournalError() error { return q.opts.Journal.Err() }

// Limits returns the bounds on running calls and on calls waiting for an
// operator. A front end that holds a worker for each call it has submitted
// sizes its pool from them, so waiting calls cannot starve the others.
func (q *Queue) Limits() (maxRunning, maxPending int) {
	return q.opts.MaxRunning, q.opts.MaxPending
}

// Headless reports whether the queue runs without an operator.
func (q *Queue) Headless() bool { return q.opts.Headless }

// Close stops taking calls, denies every pending call with reason, kills
// every running one, and waits until all Submit calls have returned or ctx
// ends. The journal is the caller's to close afterwards.
func (q *Queue) Close(ctx context.Context, reason string) error {
	q.mu.Lock()
	q.closed, q.closeReason = true, reason
	for _, e := range q.calls {
		switch e.call.Status {
		case Pending:
			q.claimLocked(e, resolution{decider: ByShutdown, reason: reason})
		case Approved, Running:
			if e.kill != nil {
				e.kill(errShutdown)
			}
		}
	}
	q.mu.Unlock()
	done := make(chan struct{})
	go func() { q.wg.Wait(); close(done) }()
	select {
	case <-done:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// JournalID is the journal's name for a call: the queue's run id and the
// call's number, so calls of separate runs never share one.
func (q *Queue) JournalID(id ID) string { return q.opts.RunID + "-" + strconv.FormatInt(int64(id), 10) }
