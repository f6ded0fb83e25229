// Package exectest provides a fake exec.Runner for tests of the layers
// above exec: it runs nothing, answers only the commands a test expects,
// and fails the test on any other.
package exectest

import (
	"context"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/assent-sh/assent/exec"
)

// Fake is an exec.Runner that plays back expected runs.
type Fake struct {
	t  testing.TB
	mu sync.Mutex
	// expected runs, matched by argv in order of Expect; each is used once
	// unless Repeat is set.
	expected []*Run
	ran      []exec.Command
}

// Run is one expected command and how the fake answers it.
type Run struct {
	// Argv must equal the command's argv.
	Argv []string
	// Whole, when set, must be the command in everything that decides
	// what runs, as Command.Hash covers it (ExpectCommand).
	Whole *exec.Command
	// Output is sent to the caller's callback, in order, before the run ends.
	Output []exec.Chunk
	// Result is returned; its Stdout and Stderr are filled from Output when
	// left empty.
	Result exec.Result
	// Hold, when non-nil, keeps the run going until it is closed or the
	// context ends (then the result says Cancelled, exit 143).
	Hold chan struct{}
	// Started, when non-nil, is closed when the run begins.
	Started chan struct{}
	// Repeat lets the run match any number of times.
	Repeat bool

	hash    string // Whole's, when set
	used    bool
	started sync.Once
}

// New returns a fake that reports unexpected commands to t.
func New(t testing.TB) *Fake { return &Fake{t: t} }

// Expect adds an expected run and returns it for further setup.
func (f *Fake) Expect(argv ...string) *Run {
	r := &Run{Argv: argv}
	f.mu.Lock()
	f.expected = append(f.expected, r)
	f.mu.Unlock()
	return r
}

// ExpectCommand adds an expected run that must match cmd as a whole: in
// every field Command.Hash covers (program path and identity, argv,
// working directory, environment, stdin, timeout, output cap and what
// happens past it, sandbox and path checks).
func (f *Fake) ExpectCommand(cmd exec.Command) *Run {
	r := f.Expect(cmd.Argv...)
	r.Whole = &cmd
	r.hash = cmd.Hash()
	return r
}

// matches reports whether cmd is the run's command.
func (r *Run) matches(cmd exec.Command) bool {
	if r.Whole != nil {
		return cmd.Hash() == r.hash
	}
	return slices.Equal(r.Argv, cmd.Argv)
}

// Stdout sets the run's output to one stdout chunk.
func (r *Run) Stdout(s string) *Run {
	r.Output = append(r.Output, exec.Chunk{Stream: exec.Stdout, Data: []byte(s), Time: time.Now()})
	return r
}

// Exit sets the run's exit code.
func (r *Run) Exit(code int) *Run {
	r.Result.ExitCode = code
	return r
}

// Ran returns the commands run so far, in order.
func (f *Fake) Ran() []exec.Command {
	f.mu.Lock()
	defer f.mu.Unlock()
	return slices.Clone(f.ran)
}

// Run implements exec.Runner.
func (f *Fake) Run(ctx context.Context, cmd exec.Command, out func(exec.Chunk)) exec.Result {
	f.mu.Lock()
	f.ran = append(f.ran, cmd)
	var r *Run
	for _, e := range f.expected {
		if (!e.used || e.Repeat) && e.matches(cmd) {
			r = e
			e.used = true
			break
		}
	}
	f.mu.Unlock()
	if r == nil {
		f.t.Errorf("exectest: unexpected command %s (path %s, cwd %q, env %q, stdin %q, timeout %v, max output %d %s, sandbox %+v, program %+v, paths %+v)",
			cmd, cmd.Path, cmd.Dir, cmd.Env, cmd.Stdin, cmd.Timeout, cmd.MaxOutput, cmd.OnOverflow, cmd.Sandbox, cmd.Program, cmd.Paths)
		return exec.Result{ExitCode: 127, StartError: "unexpected command in test: " + strings.Join(cmd.Argv, " ")}
	}
	start := time.Now()
	if r.Started != nil {
		r.started.Do(func() { close(r.Started) })
	}
	res := r.Result
	for _, ch := range r.Output {
		if out != nil {
			out(ch)
		}
		o := &res.Stdout
		if ch.Stream == exec.Stderr {
			o = &res.Stderr
		}
		o.Data = append(o.Data, ch.Data...)
		o.Bytes += int64(len(ch.Data))
	}
	if r.Hold != nil {
		// A held run is slow once it lasts the caller's After, as a real
		// one would be.
		if s := exec.SlowOf(ctx); s != nil {
			t := time.AfterFunc(s.After(), s.Give)
			defer t.Stop()
		}
		select {
		case <-r.Hold:
		case <-ctx.Done():
			res.Cancelled, res.ExitCode, res.Signal = true, 143, "SIGTERM"
		}
	} else if ctx.Err() != nil {
		res.Cancelled, res.ExitCode, res.Signal = true, 143, "SIGTERM"
	}
	res.Duration = time.Since(start)
	return res
}

// Check fails the test when an expected, non-repeating run never happened.
func (f *Fake) Check() {
	f.t.Helper()
	f.mu.Lock()
	defer f.mu.Unlock()
	for _, e := range f.expected {
		if !e.used && !e.Repeat {
			f.t.Errorf("exectest: expected command never ran: %q", e.Argv)
		}
	}
}
