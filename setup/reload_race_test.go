package setup_test

import (
	"context"
	"sync"
	"testing"

	"github.com/assent-sh/assent/policy"
	"github.com/assent-sh/assent/queue"
	"github.com/assent-sh/assent/queue/queuetest"
	"github.com/assent-sh/assent/setup"
)

const raceTools = `{
  "tools": [
    {"name": "change", "description": "asks", "command": "touch -- {file}", "params": {"file": {"type": "path"}}}
  ]
}`

// An operator pressing "always" or "session" while a reload is applied:
// every rule remembered is in force afterwards, whichever happened first.
// Rules live in one memory that every loaded policy shares, so nothing is
// copied across a reload and nothing can be lost in the copy.
func TestReload_RememberWhileApplying(t *testing.T) {
	f := queuetest.New(t, queuetest.Options{Tools: raceTools})
	r := setup.NewReloader(f.Loader, f.Loaded, func(next setup.Loaded) { f.Queue.SetPolicy(next.Policy) })
	const iterations = 200
	var inputs []policy.Input
	for i := range iterations {
		// Each call has its own file, so each remembered rule covers
		// only its own call.
		file := "f" + string(rune('a'+i%26)) + string(rune('a'+i/26))
		f.Runner.Expect("touch", "--", f.WorkDir+"/"+file)
		res := f.SubmitAsync(context.Background(), f.Request("change", map[string]any{"file": file}))
		c := f.WaitPending()
		rule, err := f.Queue.Narrowest(c.ID)
		if err != nil {
			t.Fatal(err)
		}
		change := r.Reload()
		var wg sync.WaitGroup
		wg.Go(func() {
			if err := f.Queue.ApproveRemember(c.ID, rule, i%2 == 0); err != nil {
				t.Errorf("remember #%d: %v", i, err)
			}
		})
		wg.Go(func() {
			if err := change.Apply(); err != nil {
				t.Errorf("apply #%d: %v", i, err)
			}
		})
		wg.Wait()
		if out := <-res; out.Out.Call.Status != queue.Done {
			t.Fatalf("call #%d: %+v", i, out.Out.Call)
		}
		inputs = append(inputs, policy.Input{Tool: "change", Args: c.Values, Client: c.Client})
	}
	pol := f.Queue.Policy()
	for i, in := range inputs {
		if d := pol.Decide(in); d.Action != policy.Allow || d.Remembered == "" {
			t.Errorf("call #%d: decided %s by %q after the reloads, want its remembered rule", i, d.Action, d.Rule)
		}
	}
	kinds := map[policy.Keep]int{}
	for _, rule := range pol.Remembered() {
		kinds[rule.Kept()]++
	}
	if kinds[policy.Always] != iterations/2 || kinds[policy.Session] != iterations/2 {
		t.Errorf("remembered %v, want %d of each", kinds, iterations/2)
	}
}
