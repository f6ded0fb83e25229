package setup

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// watched is a reloader over a tool file being watched, and what it put in
// force.
type watched struct {
	t       *testing.T
	file    string
	r       *Reloader
	put     chan Loaded
	changes <-chan Change
}

func newWatched(t *testing.T) *watched {
	work, state := dirs(t)
	w := &watched{t: t, file: filepath.Join(state, "tools.json"), put: make(chan Loaded, 10)}
	writeFile(t, w.file, testTools)
	l, err := NewLoader(Options{Tools: []string{w.file}, Remembered: filepath.Join(state, "remembered.json"), WorkDir: work, PATH: "/usr/bin:/bin"})
	if err != nil {
		t.Fatal(err)
	}
	first, err := l.Load()
	if err != nil {
		t.Fatal(err)
	}
	w.r = NewReloader(l, first, func(next Loaded) { w.put <- next })
	ctx, cancel := context.WithCancel(context.Background())
	if w.changes, err = w.r.Watch(ctx, 20*time.Millisecond); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cancel()
		for range w.changes { // drain until the watcher has exited
		}
	})
	return w
}

func (w *watched) next() Change {
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
	w := newWatched(t)
	before := w.r.Current()
	writeFile(t, w.file, withNewTool)
	ch := w.next()
	want := "+ tool fresh: runs /usr/bin/id\n- rule no-burn"
	if ch.Err != nil || strings.Join(ch.Summary, "\n") != want {
		t.Fatalf("change %q (err %v), want %q", ch.Summary, ch.Err, want)
	}
	if w.r.Current() != before || len(w.put) != 0 {
		t.Fatal("the change took effect before Apply")
	}
	if err := ch.Apply(); err != nil {
		t.Fatal(err)
	}
	got := <-w.put
	if got.Config.Tool("fresh") == nil || w.r.Current() != got {
		t.Fatal("Apply did not put the new tools in force")
	}
	for _, r := range got.Policy.Rules() {
		if r.ID() == "no-burn" {
			t.Fatal("the policy was not replaced: rule no-burn is still in it")
		}
	}
}

func TestWatch_InvalidFileKeepsTheOldSet(t *testing.T) {
	w := newWatched(t)
	writeFile(t, w.file, `[{"name": "x", "command": "ls | sh"}]`)
	ch := w.next()
	if ch.Err == nil || ch.Apply != nil || !strings.Contains(ch.Err.Error(), "pipe") {
		t.Fatalf("change %+v", ch)
	}
	if w.r.Current().Config.Tool("look") == nil {
		t.Fatal("old tools gone")
	}
	// Restoring the file as it was reports that all is well again.
	writeFile(t, w.file, testTools)
	if ch := w.next(); ch.Err != nil || len(ch.Summary) != 0 {
		t.Fatalf("after repair: %+v", ch)
	}
}

func TestReloader_StaleChangeIsRefused(t *testing.T) {
	w := newWatched(t)
	writeFile(t, w.file, withNewTool)
	first, second := w.r.Reload(), w.r.Reload()
	if err := second.Apply(); err != nil {
		t.Fatal(err)
	}
	if err := first.Apply(); !errors.Is(err, ErrStale) {
		t.Fatalf("stale apply: %v", err)
	}
}

func TestWatch_NothingToWatch(t *testing.T) {
	work, state := dirs(t)
	l, err := NewLoader(Options{Remembered: filepath.Join(state, "r.json"), WorkDir: work})
	if err != nil {
		t.Fatal(err)
	}
	first, err := l.Load()
	if err != nil {
		t.Fatal(err)
	}
	changes, err := NewReloader(l, first, func(Loaded) {}).Watch(context.Background(), 0)
	if err != nil || changes != nil {
		t.Errorf("watching the embedded pack: %v, %v; want no channel", changes, err)
	}
}
