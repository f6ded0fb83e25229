package server

import (
	"context"
	"testing"

	"github.com/assent-sh/assent/exec"
	"github.com/assent-sh/assent/queue"
	"github.com/assent-sh/assent/server/servertest"
)

// BenchmarkCallTool measures one auto-approved call through the
// in-process client: with the fake runner it is everything assent adds
// (MCP decoding and encoding, expansion, policy, four journal records,
// events); with the real runner it adds running uname.
func BenchmarkCallTool(b *testing.B) {
	for _, tc := range []struct {
		name  string
		local bool
	}{{"fake-runner", false}, {"real-runner", true}} {
		b.Run(tc.name, func(b *testing.B) {
			var change func(o *queue.Options)
			if tc.local {
				change = func(o *queue.Options) { o.Runner = exec.NewLocal(exec.Options{}) }
			}
			f := newFixture(b, change)
			f.Runner.Expect("uname", "s").Repeat = true
			c := f.inProcess(nil, nil)
			ctx := context.Background()
			args := map[string]any{"what_thing": "s"}
			for b.Loop() {
				res, err := servertest.Call(ctx, c, "look", args, "")
				if err != nil || res.IsError {
					b.Fatalf("%v %+v", err, res)
				}
			}
		})
	}
}
