package server

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/assent-sh/assent/policy"
	"github.com/assent-sh/assent/server/servertest"
)

// watchFixture watches a tool file in the fixture's directory.
type watchFixture struct {
	*fixture
	file    string
	changes <-chan Change
}

func newWatchFixture(t *testing.T) *watchFixture {
	f := newFixture(t, nil)
	w := &watchFixture{fixture: f, file: filepath.Join(f.dir, "tools.json")}
	w.write(testTools)
	ctx, cancel := context.WithCancel(context.Background())
	changes, err := f.s.Watch(ctx, WatchOptions{Files: []string{w.file}, Load: func() (Loaded, error) {
		data, err := os.ReadFile(w.file)
		if err != nil {
			return Loaded{}, err
		}
		return f.tryLoad(string(data))
	}, Debounce: 20 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	w.changes = changes
	t.Cleanup(func() {
		cancel()
		for range changes { // drain until the watcher has exited
		}
	})
	return w
}

func (w *watchFixture) write(text string) {
	w.t.Helper()
	// Write a temporary file and rename it over the original, as editors do.
	tmp := w.file + ".tmp"
	if err := os.WriteFile(tmp, []byte(text), 0o644); err != nil {
		w.t.Fatal(err)
	}
	if err := os.Rename(tmp, w.file); err != nil {
		w.t.Fatal(err)
	}
}

func (w *watchFixture) next() Change {
	w.t.Helper()
	select {
	case c := <-w.changes:
		return c
	case <-time.After(10 * time.Second):
		w.t.Fatal("no change reported")
	}
	return Change{}
}

// withNewTool is testTools with one more tool and one rule fewer.
var withNewTool = strings.Replace(strings.Replace(testTools,
	`{"name": "burn"`, `{"name": "fresh", "description": "new", "command": "id"}, {"name": "burn"`, 1),
	`,
    {"id": "no-burn", "decision": "deny", "tool": "burn", "reason": "never burn"}`, "", 1)

func TestWatch_ChangeIsShownThenApplied(t *testing.T) {
	for _, era := range servertest.Eras() {
		t.Run(era.Name, func(t *testing.T) {
			w := newWatchFixture(t)
			var n servertest.Notes
			c := w.inProcess(era.Options, &n)
			w.write(withNewTool)
			ch := w.next()
			want := "+ tool fresh: runs /usr/bin/id\n- rule no-burn"
			if ch.Err != nil || strings.Join(ch.Summary, "\n") != want {
				t.Fatalf("change %q (err %v), want %q", ch.Summary, ch.Err, want)
			}
			if w.s.Config().Tool("fresh") != nil {
				t.Fatal("the change took effect before Apply")
			}
			if err := ch.Apply(); err != nil {
				t.Fatal(err)
			}
			servertest.WaitFor(t, "tools/list_changed", func() bool {
				return len(n.Messages(mcp.MethodNotificationToolsListChanged)) > 0
			})
			res, err := c.ListTools(context.Background(), mcp.ListToolsRequest{})
			if err != nil {
				t.Fatal(err)
			}
			if len(res.Tools) != 4 {
				t.Fatalf("%d tools after apply", len(res.Tools))
			}
			if w.q.Policy().Rules()[len(w.q.Policy().Rules())-1].ID() != "read-only" {
				t.Fatal("the policy was not replaced")
			}
		})
	}
}

func TestWatch_InvalidFileKeepsTheOldSet(t *testing.T) {
	w := newWatchFixture(t)
	w.write(`[{"name": "x", "command": "ls | sh"}]`)
	ch := w.next()
	if ch.Err == nil || ch.Apply != nil || !strings.Contains(ch.Err.Error(), "pipe") {
		t.Fatalf("change %+v", ch)
	}
	if w.s.Config().Tool("look") == nil {
		t.Fatal("old tools gone")
	}
	// Restoring the file as it was reports that all is well again.
	w.write(testTools)
	if ch := w.next(); ch.Err != nil || len(ch.Summary) != 0 {
		t.Fatalf("after repair: %+v", ch)
	}
}

func TestWatch_StaleChangeIsRefused(t *testing.T) {
	w := newWatchFixture(t)
	first := w.s.Diff(w.load(withNewTool))
	second := w.s.Diff(w.load(withNewTool))
	if err := second.Apply(); err != nil {
		t.Fatal(err)
	}
	if err := first.Apply(); !errors.Is(err, ErrStale) {
		t.Fatalf("stale apply: %v", err)
	}
}

// TestApply_KeepsRulesRememberedSinceTheReload: a rule the operator saved
// between a change being computed and applied stays in force.
func TestApply_KeepsRulesRememberedSinceTheReload(t *testing.T) {
	f := newFixture(t, nil)
	file := filepath.Join(f.dir, "remembered.json")
	withFile := func() *policy.Policy {
		l := f.load(testTools)
		p, err := policy.New(l.Policy.Rules(), policy.WithRememberedFile(file))
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	f.q.SetPolicy(withFile())
	change := f.s.Diff(Loaded{Config: f.load(withNewTool).Config, Policy: withFile()})
	always := policy.Narrowest(policy.Input{Tool: "look", Args: map[string][]string{"what_thing": {"x"}}})
	session := policy.Narrowest(policy.Input{Tool: "look", Args: map[string][]string{"what_thing": {"y"}}})
	if err := f.q.Policy().RememberAlways(always); err != nil {
		t.Fatal(err)
	}
	if err := f.q.Policy().RememberSession(session); err != nil {
		t.Fatal(err)
	}
	if err := change.Apply(); err != nil {
		t.Fatal(err)
	}
	got := map[policy.Memory]int{}
	for _, r := range f.q.Policy().Remembered() {
		got[r.Memory()]++
	}
	if got[policy.Always] != 1 || got[policy.Session] != 1 {
		t.Fatalf("remembered after apply: %v", got)
	}
}
