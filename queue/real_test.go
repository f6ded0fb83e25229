package queue

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/assent-sh/assent/config"
	"github.com/assent-sh/assent/exec"
	"github.com/assent-sh/assent/journal"
	"github.com/assent-sh/assent/policy"
)

// TestSubmit_RealRunner takes one auto-approved call through the real
// runner and journal: the child's output comes back and is journaled.
func TestSubmit_RealRunner(t *testing.T) {
	dir, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	cfg, err := config.Load(config.Options{WorkDir: dir, PATH: "/usr/bin:/bin"}, config.Source{Name: "t.json",
		Data: []byte(`[{"name": "say", "command": "echo {word}", "read_only": true}]`)})
	if err != nil {
		t.Fatal(err)
	}
	rules, err := policy.ParseRules("inline", []byte(`[{"decision": "allow", "read_only": true}]`))
	if err != nil {
		t.Fatal(err)
	}
	pol, err := policy.New(rules)
	if err != nil {
		t.Fatal(err)
	}
	j, err := journal.Open(filepath.Join(dir, "journal.jsonl"), journal.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer j.Close()
	q, err := New(Options{Policy: pol, Runner: exec.NewLocal(exec.Options{}), Journal: j})
	if err != nil {
		t.Fatal(err)
	}
	defer q.Close(context.Background(), "test ended")
	out, err := q.Submit(context.Background(), Request{Tool: cfg.Tool("say"), Args: map[string]any{"word": "hello $(id) *"}})
	if err != nil {
		t.Fatal(err)
	}
	if c := out.Call; c.Status != Done || c.Result.ExitCode != 0 || string(c.Result.Stdout.Data) != "hello $(id) *\n" {
		t.Fatalf("call %+v, stdout %q", c, c.Result.Stdout.Data)
	}
	recs, err := journal.Read(j.Path())
	if err != nil {
		t.Fatal(err)
	}
	last := recs[len(recs)-1]
	if last.Event != journal.Finished || last.Exit == nil || *last.Exit != 0 || string(last.Stdout.Data()) != "hello $(id) *\n" {
		t.Fatalf("finished record %+v", last)
	}
}
