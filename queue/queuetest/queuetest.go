// Package queuetest builds what a test of the layers above the queue needs:
// a tool set loaded through the loader, a real journal, a fake runner and
// a queue over them, and ways to wait for a call that follow the queue's
// events instead of sleeping. The queue's, the server's and the console's
// tests all use it.
package queuetest

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/assent-sh/assent/config"
	"github.com/assent-sh/assent/exec/exectest"
	"github.com/assent-sh/assent/journal"
	"github.com/assent-sh/assent/queue"
	"github.com/assent-sh/assent/setup"
)

// Options shape a fixture.
type Options struct {
	// Tools is the text of the tool file the fixture loads (any form the
	// config package reads).
	Tools string
	// WorkDir is the directory relative paths in the tools start from;
	// default a fresh directory inside the fixture's.
	WorkDir string
	// Queue, when set, changes the queue's options before it is built.
	Queue func(o *queue.Options)
	// Client names the client of Request's calls; default test-client.
	Client string
}

// Fixture is a queue over a real journal and a fake runner.
type Fixture struct {
	T testing.TB
	// Dir holds the fixture's files: State (journal, remembered rules)
	// and, by default, the work directory.
	Dir, State, WorkDir string
	Loader              *setup.Loader
	Loaded              setup.Loaded
	Runner              *exectest.Fake
	Journal             *journal.Journal
	Queue               *queue.Queue
	client              string
}

// PATH is the search path fixtures resolve programs in.
const PATH = "/usr/bin:/bin"

// New builds a fixture and arranges for it to be closed, and for the fake
// runner to be checked, when the test ends.
func New(t testing.TB, o Options) *Fixture {
	t.Helper()
	dir, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	f := &Fixture{T: t, Dir: dir, State: filepath.Join(dir, "state"), WorkDir: o.WorkDir, Runner: exectest.New(t), client: o.Client}
	if f.client == "" {
		f.client = "test-client"
	}
	if f.WorkDir == "" {
		f.WorkDir = filepath.Join(dir, "work")
		if err := os.Mkdir(f.WorkDir, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	f.Loader, err = setup.NewLoader(setup.Options{
		Sources:    []config.Source{{Name: "tools.json", Data: []byte(o.Tools)}},
		Remembered: filepath.Join(f.State, "remembered.json"),
		WorkDir:    f.WorkDir, PATH: PATH,
	})
	if err != nil {
		t.Fatal(err)
	}
	// Loaded to decide: which of assent's files a tool could write is the
	// loader's to check, and its tests do; the fixtures' tools may write
	// anywhere they like.
	if f.Loaded, err = f.Loader.LoadToDecide(); err != nil {
		t.Fatal(err)
	}
	if f.Journal, err = journal.Open(filepath.Join(f.State, "journal.jsonl"), journal.Options{}); err != nil {
		t.Fatal(err)
	}
	opts := queue.Options{Policy: f.Loaded.Policy, Runner: f.Runner, Journal: f.Journal, PATH: PATH}
	if o.Queue != nil {
		o.Queue(&opts)
	}
	if f.Queue, err = queue.New(opts); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		if err := f.Queue.Close(ctx, "test ended"); err != nil {
			t.Errorf("queue close: %v", err)
		}
		if err := f.Journal.Close(); err != nil {
			t.Errorf("journal close: %v", err)
		}
		f.Runner.Check()
	})
	return f
}

// Config is the loaded tool set.
func (f *Fixture) Config() *config.Config { return f.Loaded.Config }

// Request builds a request for a tool of the fixture's config, from the
// fixture's client.
func (f *Fixture) Request(tool string, args map[string]any) queue.Request {
	f.T.Helper()
	tl := f.Config().Tool(tool)
	if tl == nil {
		f.T.Fatalf("no tool %s", tool)
	}
	return queue.Request{Tool: tl, Args: args, Client: f.client, Session: "s1", Origin: "test"}
}

// Submitted is how one Submit returned.
type Submitted struct {
	Out queue.Outcome
	Err error
}

// SubmitAsync runs Submit in a goroutine and returns where its result lands.
func (f *Fixture) SubmitAsync(ctx context.Context, req queue.Request) <-chan Submitted {
	ch := make(chan Submitted, 1)
	go func() {
		out, err := f.Queue.Submit(ctx, req)
		ch <- Submitted{out, err}
	}()
	return ch
}

// Records returns the journal's records for one call, in order.
func (f *Fixture) Records(id queue.ID) []journal.Record {
	f.T.Helper()
	recs, err := journal.Read(f.Journal.Path())
	if err != nil {
		f.T.Fatal(err)
	}
	var out []journal.Record
	for _, r := range recs {
		if r.Call == f.Queue.JournalID(id) {
			out = append(out, r)
		}
	}
	return out
}

// LoadTools loads another tool file's text against the fixture's work
// directory, as a changed tool file would load.
func (f *Fixture) LoadTools(text string) setup.Loaded {
	f.T.Helper()
	opts := f.Loader.Options()
	opts.Sources = []config.Source{{Name: "tools.json", Data: []byte(text)}}
	l, err := setup.NewLoader(opts)
	if err != nil {
		f.T.Fatal(err)
	}
	loaded, err := l.LoadToDecide()
	if err != nil {
		f.T.Fatal(err)
	}
	return loaded
}
