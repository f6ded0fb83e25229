package queue_test

import (
	"context"
	"testing"

	"github.com/assent-sh/assent/exec"
	"github.com/assent-sh/assent/journal"
	"github.com/assent-sh/assent/queue"
	"github.com/assent-sh/assent/queue/queuetest"
)

// TestSubmit_RealRunner takes one auto-approved call through the real
// runner and journal: the child's output comes back and is journaled.
func TestSubmit_RealRunner(t *testing.T) {
	f := queuetest.New(t, queuetest.Options{
		Tools: `{"tools": [{"name": "say", "command": "echo {word}", "read_only": true}],
		         "rules": [{"decision": "allow", "read_only": true}]}`,
		Queue: func(o *queue.Options) { o.Runner = exec.NewLocal(exec.Options{}) },
	})
	out, err := f.Queue.Submit(context.Background(), f.Request("say", map[string]any{"word": "hello $(id) *"}))
	if err != nil {
		t.Fatal(err)
	}
	if c := out.Call; c.Status != queue.Done || c.Result.ExitCode != 0 || string(c.Result.Stdout.Data) != "hello $(id) *\n" {
		t.Fatalf("call %+v, stdout %q", c, c.Result.Stdout.Data)
	}
	recs := f.Records(out.Call.ID)
	last := recs[len(recs)-1]
	if last.Event != journal.Finished || last.Exit == nil || *last.Exit != 0 || string(last.Stdout.Data()) != "hello $(id) *\n" {
		t.Fatalf("finished record %+v", last)
	}
}
