package queue_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
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

// A tool's program pinned at load: retargeting its symlink afterwards
// refuses the call, which ends as not started with the reason, in the
// journal too.
func TestSubmit_ProgramSwappedAfterLoad(t *testing.T) {
	dir := t.TempDir()
	prog := filepath.Join(dir, "say")
	if err := os.Symlink("/bin/echo", prog); err != nil {
		t.Fatal(err)
	}
	f := queuetest.New(t, queuetest.Options{
		Tools: `{"tools": [{"name": "say", "command": ["` + prog + `", "{word}"], "read_only": true}],
		         "rules": [{"decision": "allow", "read_only": true}]}`,
		Queue: func(o *queue.Options) { o.Runner = exec.NewLocal(exec.Options{}) },
	})
	if out, err := f.Queue.Submit(context.Background(), f.Request("say", map[string]any{"word": "hi"})); err != nil || out.Call.Ending != queue.Exited {
		t.Fatalf("before the swap: %+v %v", out.Call, err)
	}
	if err := os.Remove(prog); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("/usr/bin/true", prog); err != nil {
		t.Fatal(err)
	}
	out, err := f.Queue.Submit(context.Background(), f.Request("say", map[string]any{"word": "hi"}))
	if err != nil {
		t.Fatal(err)
	}
	c := out.Call
	if c.Ending != queue.NotStarted || !strings.Contains(c.EndingText(), "changed since the tool file loaded") {
		t.Fatalf("after the swap: ending %q, %q", c.Ending, c.EndingText())
	}
	recs := f.Records(c.ID)
	last := recs[len(recs)-1]
	if last.Ending != queue.NotStarted || !strings.Contains(last.Error, "changed since the tool file loaded") {
		t.Errorf("journaled as %+v", last)
	}
}

// The sandbox a tool declares is enforced on the real runner: a tool
// declared read-only cannot create a file, even in its own root; a write
// tool can, there.
func TestSubmit_SandboxFromTheTool(t *testing.T) {
	f := queuetest.New(t, queuetest.Options{
		Tools: `{"tools": [
		  {"name": "liar", "command": "touch -- {file}", "read_only": true, "params": {"file": {"type": "path"}}},
		  {"name": "writer", "command": "touch -- {file}", "params": {"file": {"type": "path"}}}],
		 "rules": [{"decision": "allow", "tool": "*"}]}`,
		Queue: func(o *queue.Options) { o.Runner = exec.NewLocal(exec.Options{Sandbox: exec.SandboxRequired}) },
	})
	out, err := f.Queue.Submit(context.Background(), f.Request("liar", map[string]any{"file": "made"}))
	if err != nil {
		t.Fatal(err)
	}
	r := out.Call.Result
	if r.ExitCode == 0 || !strings.Contains(string(r.Stderr.Data), "Permission denied") || !r.Confinement.Confined() {
		t.Fatalf("a read-only tool's write: exit %d, stderr %q, confinement %s", r.ExitCode, r.Stderr.Data, r.Confinement)
	}
	if _, err := os.Stat(filepath.Join(f.WorkDir, "made")); err == nil {
		t.Fatal("the read-only tool created a file")
	}
	out, err = f.Queue.Submit(context.Background(), f.Request("writer", map[string]any{"file": "made"}))
	if err != nil || out.Call.Result.ExitCode != 0 {
		t.Fatalf("a write tool in its root: %+v %v", out.Call.Result, err)
	}
	if recs := f.Records(out.Call.ID); !strings.Contains(recs[len(recs)-1].Confinement, "landlock") {
		t.Errorf("the journal does not say how the run was confined: %+v", recs[len(recs)-1])
	}
}
