package server

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/mcp"
	"go.uber.org/goleak"

	"github.com/assent-sh/assent/queue"
	"github.com/assent-sh/assent/queue/queuetest"
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
	*queuetest.Fixture
	s *Server
	// responses counts what ServeStdio wrote, when stdioPipe is used.
	responses *responseCounter
}

func newFixture(t testing.TB, change func(o *queue.Options)) *fixture {
	t.Helper()
	f := &fixture{Fixture: queuetest.New(t, queuetest.Options{Tools: testTools, Queue: change})}
	var err error
	f.s, err = New(f.Config(), Options{Queue: f.Queue, ProgressInterval: 20 * time.Millisecond, Heartbeat: 50 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	return f
}

// inProcess returns a started in-process client of the era.
func (f *fixture) inProcess(opts []client.ClientOption, n *servertest.Notes) *client.Client {
	f.T.Helper()
	c, err := client.NewInProcessClientWithOptions(f.s.MCP(), opts...)
	if err != nil {
		f.T.Fatal(err)
	}
	servertest.Connect(f.T, c, "test-agent", n)
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
