package setup

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/assent-sh/assent/config"
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
	l, first := mustLoad(t, Options{Tools: []string{w.file}, Remembered: filepath.Join(state, "remembered.json"), WorkDir: work, PATH: "/usr/bin:/bin"})
	w.r = NewReloader(l, first, func(next Loaded) { w.put <- next })
	ctx, cancel := context.WithCancel(context.Background())
	var err error
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

// TestWatch_SeesAChangeMadeBeforeItBegan: a file replaced after the
// set-up in force loaded, but before the watch began, is reported as soon
// as the watch begins (assent serves the client while the watch starts),
// even with an old modification time, as cp -p or tar leave one.
func TestWatch_SeesAChangeMadeBeforeItBegan(t *testing.T) {
	work, state := dirs(t)
	file := filepath.Join(state, "tools.json")
	writeFile(t, file, testTools)
	l, first := mustLoad(t, Options{Tools: []string{file}, Remembered: filepath.Join(state, "remembered.json"), WorkDir: work, PATH: "/usr/bin:/bin"})
	writeFile(t, file, withNewTool)
	old := time.Now().Add(-time.Hour)
	if err := os.Chtimes(file, old, old); err != nil {
		t.Fatal(err)
	}
	r := NewReloader(l, first, func(Loaded) {})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	changes, err := r.Watch(ctx, 20*time.Millisecond)
	if err != nil {
		t.Fatal(err)
	}
	select {
	case ch := <-changes:
		if ch.Err != nil || !strings.Contains(strings.Join(ch.Summary, "\n"), "+ tool fresh") {
			t.Fatalf("change %q (err %v)", ch.Summary, ch.Err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the change made before the watch began was not reported")
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
	l, first := mustLoad(t, Options{Sources: []config.Source{{Name: "t.json", Data: []byte(testTools)}},
		Remembered: filepath.Join(state, "r.json"), WorkDir: work})
	changes, err := NewReloader(l, first, func(Loaded) {}).Watch(context.Background(), 0)
	if err != nil || changes != nil {
		t.Errorf("watching tools given as bytes: %v, %v; want no channel", changes, err)
	}
}

// With no tool files given, the config directory is read, and a tool
// file added to its tools.d later is a change like any other.
func TestWatch_ConfigDirectory(t *testing.T) {
	work, state := dirs(t)
	conf := filepath.Join(state, "config")
	if err := os.MkdirAll(conf, 0o700); err != nil {
		t.Fatal(err)
	}
	l, first := mustLoad(t, Options{ConfigDir: conf, Remembered: filepath.Join(state, "r.json"), WorkDir: work, PATH: "/usr/bin:/bin"})
	if got := first.Config.Sources; len(got) != 1 || !strings.Contains(got[0], "embedded") {
		t.Fatalf("an empty config directory loaded %v, want the embedded pack", got)
	}
	w := &watched{t: t, put: make(chan Loaded, 1)}
	w.r = NewReloader(l, first, func(next Loaded) { w.put <- next })
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var err error
	if w.changes, err = w.r.Watch(ctx, 20*time.Millisecond); err != nil || w.changes == nil {
		t.Fatalf("watching the config directory: %v", err)
	}
	if err := os.Mkdir(filepath.Join(conf, "tools.d"), 0o700); err != nil {
		t.Fatal(err)
	}
	// Making tools.d is itself a change (that changes nothing, so nothing
	// is sent); the file written after it is watched too.
	time.Sleep(100 * time.Millisecond)
	writeFile(t, filepath.Join(conf, "tools.d", "mine.json"), `[{"name": "mine", "command": "id"}]`)
	ch := w.next()
	if ch.Err != nil || !strings.Contains(strings.Join(ch.Summary, "\n"), "+ tool mine") {
		t.Fatalf("change %q (%v), want the new tool", ch.Summary, ch.Err)
	}
	if err := ch.Apply(); err != nil {
		t.Fatal(err)
	}
	if got := <-w.put; got.Config.Tool("mine") == nil || got.Config.Tool("read_file") != nil {
		t.Fatal("the config directory's tool file did not replace the embedded pack")
	}
	cancel()
	for range w.changes {
	}
}

// A program replaced after load is offered as a change (its calls are
// refused until it is applied), naming what changed: a tool's program,
// one system_command allows, and one of a tool that an applied change
// added, which must be watched from then on.
func TestWatch_ProgramChanged(t *testing.T) {
	tests := []struct {
		name  string
		tools string // %prog is the program
		added bool   // the tool comes with a change applied after the watch began
	}{
		{name: "a tool's program", tools: `[{"name": "say", "command": ["%prog", "{w}"]}]`},
		{name: "a program system_command allows", tools: `{"settings": {"system_command": {"allow": ["say"]}}}`},
		{name: "the program of a tool added by a change", tools: `[{"name": "say", "command": ["%prog", "{w}"]}]`, added: true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			work, state := dirs(t)
			bin := filepath.Join(state, "bin")
			if err := os.Mkdir(bin, 0o700); err != nil {
				t.Fatal(err)
			}
			prog := filepath.Join(bin, "say")
			if err := os.Symlink("/bin/echo", prog); err != nil {
				t.Fatal(err)
			}
			tools := filepath.Join(state, "tools.json")
			text := strings.NewReplacer("%prog", prog).Replace(tc.tools)
			if tc.added {
				writeFile(t, tools, `[{"name": "other", "command": "id"}]`)
			} else {
				writeFile(t, tools, text)
			}
			l, first := mustLoad(t, Options{Tools: []string{tools}, Remembered: filepath.Join(state, "r.json"), WorkDir: work,
				PATH: bin + ":/usr/bin:/bin"})
			w := &watched{t: t, r: NewReloader(l, first, func(Loaded) {})}
			ctx, cancel := context.WithCancel(context.Background())
			var err error
			if w.changes, err = w.r.Watch(ctx, 20*time.Millisecond); err != nil {
				t.Fatal(err)
			}
			defer func() {
				cancel()
				for range w.changes {
				}
			}()
			if tc.added {
				writeFile(t, tools, text)
				if err := w.next().Apply(); err != nil {
					t.Fatal(err)
				}
				if w.r.Current().Config.Tool("say") == nil {
					t.Fatal("the change did not add the tool")
				}
			}
			tmp := prog + ".new"
			if err := os.Symlink("/usr/bin/true", tmp); err != nil {
				t.Fatal(err)
			}
			if err := os.Rename(tmp, prog); err != nil {
				t.Fatal(err)
			}
			if ch := w.next(); ch.Err != nil || !strings.Contains(strings.Join(ch.Summary, "\n"), "program "+prog+" changed since it loaded") {
				t.Fatalf("change %q (%v)", ch.Summary, ch.Err)
			}
		})
	}
}
