package server

import (
	"context"
	"encoding/json"
	"path/filepath"
	"strings"
	"sync"
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

// eras are the two protocol eras mcp-go's client speaks: by default the
// stateless 2026-07-28 core, or, pinned, the initialize handshake.
var eras = []struct {
	name string
	opts []client.ClientOption
}{
	{mcp.ProtocolVersion20260728, nil},
	{mcp.ProtocolVersion20251125, []client.ClientOption{client.WithProtocolVersion(mcp.ProtocolVersion20251125)}},
}

// fixture is a server over a queue with a real journal and a fake runner.
type fixture struct {
	t      *testing.T
	dir    string
	cfg    *config.Config
	runner *exectest.Fake
	q      *queue.Queue
	s      *Server
	// responses counts what ServeStdio wrote, when stdioPipe is used.
	responses *responseCounter
}

func newFixture(t *testing.T, change func(o *queue.Options)) *fixture {
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

// notes collects a client's notifications.
type notes struct {
	mu  sync.Mutex
	got []mcp.JSONRPCNotification
}

func (n *notes) add(x mcp.JSONRPCNotification) {
	n.mu.Lock()
	n.got = append(n.got, x)
	n.mu.Unlock()
}

// messages returns the message of each notification of the method.
func (n *notes) messages(method string) []string {
	n.mu.Lock()
	defer n.mu.Unlock()
	var out []string
	for _, x := range n.got {
		if x.Method == method {
			m, _ := x.Params.AdditionalFields["message"].(string)
			out = append(out, m)
		}
	}
	return out
}

// waitFor polls until cond holds: mcp-go's client delivers notifications
// asynchronously, sometimes after the response they preceded.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// start initializes a client as "test-agent" and closes it when the test
// ends; n, when non-nil, collects its notifications.
func start(t *testing.T, c *client.Client, n *notes) {
	t.Helper()
	if n != nil {
		c.OnNotification(n.add)
	}
	// Start's context lives as long as the connection (a listening
	// stream, a child process), so it is not the handshake's timeout.
	if err := c.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	t.Cleanup(func() { _ = c.Close() })
	var ir mcp.InitializeRequest
	ir.Params.ClientInfo = mcp.Implementation{Name: "test-agent", Version: "1"}
	if _, err := c.Initialize(ctx, ir); err != nil {
		t.Fatal(err)
	}
}

// inProcess returns a started in-process client of the era.
func (f *fixture) inProcess(opts []client.ClientOption, n *notes) *client.Client {
	f.t.Helper()
	c, err := client.NewInProcessClientWithOptions(f.s.MCP(), opts...)
	if err != nil {
		f.t.Fatal(err)
	}
	start(f.t, c, n)
	return c
}

// call calls a tool; token, when not "", asks for progress.
func call(ctx context.Context, c *client.Client, tool string, args map[string]any, token string) (*mcp.CallToolResult, error) {
	var r mcp.CallToolRequest
	r.Params.Name = tool
	r.Params.Arguments = args
	if token != "" {
		r.Params.Meta = &mcp.Meta{ProgressToken: token}
	}
	return c.CallTool(ctx, r)
}

// textOf returns the result's text content.
func textOf(r *mcp.CallToolResult) string {
	var b strings.Builder
	for _, c := range r.Content {
		if tc, ok := c.(mcp.TextContent); ok {
			b.WriteString(tc.Text)
		}
	}
	return b.String()
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
	waitFor(f.t, "call "+id.String()+" "+string(want), func() bool {
		var err error
		c, err = f.q.Call(id)
		return err == nil && c.Status == want
	})
	return c
}
