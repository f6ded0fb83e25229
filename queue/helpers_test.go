package queue

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"go.uber.org/goleak"

	"github.com/assent-sh/assent/config"
	"github.com/assent-sh/assent/exec/exectest"
	"github.com/assent-sh/assent/journal"
	"github.com/assent-sh/assent/policy"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

// testTools are the tools every queue test can call: one read-only (auto
// approved by the rules below), one that asks, one a rule denies.
const testTools = `{
  "tools": [
    {"name": "look", "description": "read-only", "command": "uname {what}", "read_only": true},
    {"name": "change", "description": "asks", "command": "touch -- {file}", "params": {"token": {"secret": true}, "file": {"type": "path", "under": ["/"]}},
     "env": {"TOKEN": "{token}"}},
    {"name": "burn", "description": "denied", "command": "uname --burn {x}"},
    {"name": "unlock", "description": "asks", "command": "uname --pin={pin}",
     "params": {"pin": {"type": "integer", "max": 9999, "secret": true}}}
  ],
  "rules": [
    {"id": "read-only", "decision": "allow", "read_only": true, "reason": "read-only tool"},
    {"id": "no-burn", "decision": "deny", "tool": "burn", "reason": "never burn"}
  ]
}`

// fixture is a queue over a real journal and a fake runner.
type fixture struct {
	t       *testing.T
	cfg     *config.Config
	runner  *exectest.Fake
	journal *journal.Journal
	q       *Queue
	dir     string
}

func newFixture(t *testing.T, change func(o *Options)) *fixture {
	t.Helper()
	dir, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	cfg, err := config.Load(config.Options{WorkDir: dir, PATH: "/usr/bin:/bin"}, config.Source{Name: "tools.json", Data: []byte(testTools)})
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
	pol, err := policy.New(rules, policy.WithRememberedFile(filepath.Join(dir, "state", "remembered.json")))
	if err != nil {
		t.Fatal(err)
	}
	j, err := journal.Open(filepath.Join(dir, "state", "journal.jsonl"), journal.Options{})
	if err != nil {
		t.Fatal(err)
	}
	f := &fixture{t: t, cfg: cfg, runner: exectest.New(t), journal: j, dir: dir}
	opts := Options{Policy: pol, Runner: f.runner, Journal: j, PATH: "/usr/bin:/bin"}
	if change != nil {
		change(&opts)
	}
	if f.q, err = New(opts); err != nil {
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

// request builds a request for a tool of the fixture's config.
func (f *fixture) request(tool string, args map[string]any) Request {
	f.t.Helper()
	tl := f.cfg.Tool(tool)
	if tl == nil {
		f.t.Fatalf("no tool %s", tool)
	}
	return Request{Tool: tl, Args: args, Client: "test-client", Session: "s1", Origin: "test"}
}

// submitAsync runs Submit in a goroutine and returns where its result lands.
type submitted struct {
	out Outcome
	err error
}

func (f *fixture) submitAsync(ctx context.Context, req Request) <-chan submitted {
	ch := make(chan submitted, 1)
	go func() {
		out, err := f.q.Submit(ctx, req)
		ch <- submitted{out, err}
	}()
	return ch
}

// waitStatus polls until call id has the status.
func (f *fixture) waitStatus(id ID, want Status) Call {
	f.t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for {
		c, err := f.q.Call(id)
		if err == nil && c.Status == want {
			return c
		}
		if time.Now().After(deadline) {
			f.t.Fatalf("call %s: status %s (err %v), want %s", id, c.Status, err, want)
		}
		time.Sleep(time.Millisecond)
	}
}

// records returns the journal's records for one call, in order.
func (f *fixture) records(id ID) []journal.Record {
	f.t.Helper()
	recs, err := journal.Read(f.journal.Path())
	if err != nil {
		f.t.Fatal(err)
	}
	var out []journal.Record
	for _, r := range recs {
		if r.Call == f.q.callID(id) {
			out = append(out, r)
		}
	}
	return out
}

func events(recs []journal.Record) []string {
	var out []string
	for _, r := range recs {
		s := string(r.Event)
		if r.Decision != "" {
			s += ":" + string(r.Decision) + "/" + string(r.Decider)
		}
		out = append(out, s)
	}
	return out
}

func fileExists(p string) bool {
	_, err := os.Stat(p)
	return err == nil
}
