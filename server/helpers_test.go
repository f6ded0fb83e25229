package server

import (
	"context"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/mcp"
	"go.uber.org/goleak"

	"github.com/assent-sh/assent/config"
	"github.com/assent-sh/assent/exec/exectest"
	"github.com/assent-sh/assent/journal"
	"github.com/assent-sh/assent/policy"
	"github.com/assent-sh/assent/queue"
	"github.com/assent-sh/assent/server/servertest"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

// testTools: one read-only tool (auto-approved), one that asks, one a rule
// denies.
const testTools = `{
  "tools": [
    {"name": "look", "description": "Look at a {what_thing}", "command": "uname {what_thing}", "read_only": true},
    {"name": "change", "description": "Touch a {file}", "command": "touch -- {file}", "params": {"file": {"type": "path"}}},
    {"name": "burn", "description": "denied", "command": "uname --burn {x}"}
  ],
  "rules": [
    {"id": "read-only", "decision": "allow", "read_only": true, "reason": "read-only tool"},
    {"id": "no-burn", "decision": "deny", "tool": "burn", "reason": "never burn"}
  ]
}`

// fixture is a server over a queue with a real journal and a fake runner.
type fixture struct {
	t      testing.TB
	dir    string
	cfg    *config.Config
	runner *exectest.Fake
	q      *queue.Queue
	s      *Server
	// responses counts what ServeStdio wrote, when stdioPipe is used.
	responses *responseCounter
}

func newFixture(t testing.TB, change func(o *queue.Options)) *fixture {
	t.Helper()
	dir, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	f := &fixture{t: t, dir: dir, runner: exectest.New(t)}
	loaded := f.load(testTools)
	f.cfg = loaded.Config
	j, err := journal.Open(filepath.Join(dir, "journal.jsonl"), journal.Options{})
	if err != nil {
		t.Fatal(err)
	}
	opts := queue.Options{Policy: loaded.Policy, Runner: f.runner, Journal: j, PATH: "/usr/bin:/bin"}
	if change != nil {
		change(&opts)
	}
	if f.q, err = queue.New(opts); err != nil {
		t.Fatal(err)
	}
	f.s, err = New(f.cfg, Options{Queue: f.q, ProgressInterval: 20 * time.Millisecond, Heartbeat: 50 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		if err := f.q.Close(ctx, "test ended"); err != nil {
			t.Errorf("queue close: %v", err)
		}
		if err := j.Close(); err != nil {
			t.Errorf("journal close: %v", err)
		}
		f.runner.Check()
	})
	return f
}

// load compiles a tool file and its rules against the fixture's directory.
func (f *fixture) load(text string) Loaded {
	f.t.Helper()
	l, err := f.tryLoad(text)
	if err != nil {
		f.t.Fatal(err)
	}
	return l
}

// tryLoad is load that returns the error.
func (f *fixture) tryLoad(text string) (Loaded, error) {
	cfg, err := config.Load(config.Options{WorkDir: f.dir, PATH: "/usr/bin:/bin"}, config.Source{Name: "tools.json", Data: []byte(text)})
	if err != nil {
		return Loaded{}, err
	}
	var rules []policy.Rule
	for _, rs := range cfg.Rules {
		r, err := policy.ParseRules(rs.Source, rs.JSON)
		if err != nil {
			return Loaded{}, err
		}
		rules = append(rules, r...)
	}
	pol, err := policy.New(rules)
	if err != nil {
		return Loaded{}, err
	}
	return Loaded{Config: cfg, Policy: pol}, nil
}

// inProcess returns a started in-process client of the era.
func (f *fixture) inProcess(opts []client.ClientOption, n *servertest.Notes) *client.Client {
	f.t.Helper()
	c, err := client.NewInProcessClientWithOptions(f.s.MCP(), opts...)
	if err != nil {
		f.t.Fatal(err)
	}
	servertest.Connect(f.t, c, "test-agent", n)
	return c
}

// structured decodes the result's structured content.
func structured(t *testing.T, r *mcp.CallToolResult) callResult {
	t.Helper()
	raw, err := json.Marshal(r.StructuredContent)
	if err != nil {
		t.Fatal(err)
	}
	var out callResult
	dec := json.NewDecoder(strings.NewReader(string(raw)))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&out); err != nil {
		t.Fatalf("structured content %s: %v", raw, err)
	}
	return out
}

// waitStatus polls until the queue holds call id with status.
func (f *fixture) waitStatus(id queue.ID, want queue.Status) queue.Call {
	f.t.Helper()
	var c queue.Call
	servertest.WaitFor(f.t, "call "+id.String()+" "+string(want), func() bool {
		var err error
		c, err = f.q.Call(id)
		return err == nil && c.Status == want
	})
	return c
}
