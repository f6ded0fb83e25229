package ui

import (
	"context"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"go.uber.org/goleak"

	"github.com/assent-sh/assent/config"
	"github.com/assent-sh/assent/exec/exectest"
	"github.com/assent-sh/assent/journal"
	"github.com/assent-sh/assent/policy"
	"github.com/assent-sh/assent/queue"
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
     "params": {"text": {"multiline": true}}}
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

// fixture is a real queue over a real journal and the fake runner.
type fixture struct {
	t      *testing.T
	cfg    *config.Config
	runner *exectest.Fake
	q      *queue.Queue
	dir    string
	clock  *clock
}

func newFixture(t *testing.T, change func(o *queue.Options)) *fixture {
	t.Helper()
	dir, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	cfg, err := config.Load(config.Options{WorkDir: "/usr", PATH: "/usr/bin:/bin"},
		config.Source{Name: "tools.json", Data: []byte(testTools)})
	if err != nil {
		t.Fatal(err)
	}
	var rules []policy.Rule
	for _, rs := range cfg.Rules {
		r, err := policy.ParseRules(rs.Source, rs.JSON)
		if err != nil {
			t.Fatal(err)
		}
		rules = append(rules, r...)
	}
	pol, err := policy.New(rules, policy.WithRememberedFile(filepath.Join(dir, "remembered.json")))
	if err != nil {
		t.Fatal(err)
	}
	j, err := journal.Open(filepath.Join(dir, "journal.jsonl"), journal.Options{})
	if err != nil {
		t.Fatal(err)
	}
	f := &fixture{t: t, cfg: cfg, runner: exectest.New(t), dir: dir, clock: newClock(1500 * time.Millisecond)}
	opts := queue.Options{Policy: pol, Runner: f.runner, Journal: j, PATH: "/usr/bin:/bin", RunID: "test", Now: f.clock.Now}
	if change != nil {
		change(&opts)
	}
	if f.q, err = queue.New(opts); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		if err := f.q.Close(ctx, "test ended"); err != nil {
			t.Errorf("close: %v", err)
		}
		if err := j.Close(); err != nil {
			t.Errorf("journal close: %v", err)
		}
		f.runner.Check()
	})
	return f
}

// submitted is where an asynchronous Submit lands.
type submitted struct {
	out queue.Outcome
	err error
}

// submit calls tool in a goroutine, as a front end would.
func (f *fixture) submit(tool string, args map[string]any) <-chan submitted {
	f.t.Helper()
	tl := f.cfg.Tool(tool)
	if tl == nil {
		f.t.Fatalf("no tool %s", tool)
	}
	ch := make(chan submitted, 1)
	go func() {
		out, err := f.q.Submit(context.Background(), queue.Request{Tool: tl, Args: args, Client: "claude-code", Origin: "test"})
		ch <- submitted{out, err}
	}()
	return ch
}

// result waits for a submitted call's outcome.
func (f *fixture) result(ch <-chan submitted) submitted {
	f.t.Helper()
	select {
	case s := <-ch:
		return s
	case <-time.After(10 * time.Second):
		f.t.Fatal("the call did not end")
	}
	return submitted{}
}
