package ui

import (
	"context"
	"sync"
	"testing"
	"time"

	"go.uber.org/goleak"

	"github.com/assent-sh/assent/queue"
	"github.com/assent-sh/assent/queue/queuetest"
)

func TestMain(m *testing.M) {
	goleak.VerifyTestMain(m,
		// teatest watches for SIGINT in a goroutine that outlives the program.
		goleak.IgnoreTopFunction("github.com/charmbracelet/x/exp/teatest/v2.NewTestModel.func2"),
		goleak.IgnoreTopFunction("os/signal.signal_recv"),
		goleak.IgnoreTopFunction("os/signal.loop"))
}

// testTools are the tools the console tests call. Paths resolve under
// /usr, the same on every machine, so views never show a temporary
// directory.
const testTools = `{
  "tools": [
    {"name": "grep_search", "description": "search", "command": "grep -rn -- {pattern} {path}",
     "params": {"path": {"type": "path", "under": ["/usr"]}}},
    {"name": "look", "description": "read-only", "command": "uname {what}", "read_only": true},
    {"name": "burn", "description": "denied", "command": "uname --burn {x}"},
    {"name": "deploy", "description": "has a secret", "command": "date +{format}",
     "params": {"token": {"secret": true}}, "env": {"TOKEN": "{token}"}},
    {"name": "note", "description": "multi-line text", "command": "echo {text}",
     "params": {"text": {"multiline": true}}},
    {"name": "write_file", "description": "writes its stdin", "command": ["dd", "of={path}", "status=none"],
     "stdin": "{content}",
     "params": {"path": {"type": "path", "under": ["/usr"]}, "content": {"type": "string", "multiline": true}}},
    {"name": "say", "description": "a list", "command": "echo -- {words...}"},
    {"name": "run_shell", "description": "a shell", "command": "sh -c {script}", "shell": true}
  ],
  "rules": [
    {"id": "read-only", "decision": "allow", "read_only": true, "reason": "read-only tool"},
    {"id": "no-burn", "decision": "deny", "tool": "burn", "reason": "never burn"}
  ]
}`

// testToken is the bearer token the views show a hint of.
const testToken = "s3cr3t-token-0123456789abcdef-a41f"

// clock is a test clock: it moves only when a test moves it, or by step
// on every reading when step is set.
type clock struct {
	mu   sync.Mutex
	t    time.Time
	step time.Duration
}

func newClock(step time.Duration) *clock {
	return &clock{t: time.Date(2026, 12, 1, 9, 30, 0, 0, time.UTC), step: step}
}

func (c *clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	now := c.t
	c.t = c.t.Add(c.step)
	return now
}

func (c *clock) Add(d time.Duration) {
	c.mu.Lock()
	c.t = c.t.Add(d)
	c.mu.Unlock()
}

// fixture is a real queue over a real journal and the fake runner, with
// the test clock.
type fixture struct {
	*queuetest.Fixture
	clock *clock
}

func newFixture(t *testing.T, change func(o *queue.Options)) *fixture {
	t.Helper()
	f := &fixture{clock: newClock(1500 * time.Millisecond)}
	f.Fixture = queuetest.New(t, queuetest.Options{Tools: testTools, WorkDir: "/usr", Client: "claude-code",
		Queue: func(o *queue.Options) {
			o.RunID, o.Now = "test", f.clock.Now
			if change != nil {
				change(o)
			}
		}})
	return f
}

// submit calls tool in a goroutine, as a front end would.
func (f *fixture) submit(tool string, args map[string]any) <-chan queuetest.Submitted {
	f.T.Helper()
	return f.SubmitAsync(context.Background(), f.Request(tool, args))
}

// result waits for a submitted call's outcome.
func (f *fixture) result(ch <-chan queuetest.Submitted) queuetest.Submitted {
	f.T.Helper()
	select {
	case s := <-ch:
		return s
	case <-time.After(10 * time.Second):
		f.T.Fatal("the call did not end")
	}
	return queuetest.Submitted{}
}
