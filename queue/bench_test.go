package queue_test

import (
	"context"
	osexec "os/exec"
	"testing"

	"github.com/assent-sh/assent/bench/pair"
	"github.com/assent-sh/assent/exec"
	"github.com/assent-sh/assent/queue"
	"github.com/assent-sh/assent/queue/queuetest"
)

const benchTools = `{"tools": [{"name": "hello", "description": "Say hello", "command": "echo hello", "read_only": true, "sandbox": false}],
 "rules": [{"id": "read-only", "decision": "allow", "read_only": true}]}`

// BenchmarkSubmit measures one auto-approved call through the queue. With
// the fake runner it is what the queue adds to a call (expansion, policy,
// four journal records in two writes, events); with the real runner it
// runs echo, beside a bare os/exec run of echo in the same environment,
// interleaved, and the ratio is the queue's and the runner's overhead
// together.
func BenchmarkSubmit(b *testing.B) {
	b.Run("fake-runner", func(b *testing.B) {
		f := queuetest.New(b, queuetest.Options{Tools: benchTools, Queue: func(o *queue.Options) { o.Headless = true }})
		f.Runner.Expect("echo", "hello").Repeat = true
		req := f.Request("hello", map[string]any{})
		ctx := context.Background()
		b.ReportAllocs()
		for b.Loop() {
			if out, err := f.Queue.Submit(ctx, req); err != nil || out.Call.Ending != queue.Exited {
				b.Fatalf("%v %+v", err, out.Call)
			}
		}
	})
	b.Run("real-runner", func(b *testing.B) {
		l := exec.NewLocal(exec.Options{})
		b.Cleanup(func() { l.Close() })
		f := queuetest.New(b, queuetest.Options{Tools: benchTools, Queue: func(o *queue.Options) { o.Headless = true; o.Runner = l }})
		req := f.Request("hello", map[string]any{})
		ctx := context.Background()
		echo, err := osexec.LookPath("echo")
		if err != nil {
			b.Fatal(err)
		}
		env := l.Environ(nil) // what the runner gives echo: its start depends on it
		pair.Compare(b, "submit", func() {
			if out, err := f.Queue.Submit(ctx, req); err != nil || out.Call.Ending != queue.Exited {
				b.Fatalf("%v %+v", err, out.Call)
			}
		}, "bare", func() {
			cmd := osexec.Command(echo, "hello")
			cmd.Env = env
			if _, err := cmd.Output(); err != nil {
				b.Fatal(err)
			}
		})
	})
}
