//go:build linux

package exec

import (
	"bytes"
	"context"
	"maps"
	"os"
	"strings"
	"testing"
	"time"
)

// openDescriptors counts this process's open pipes and pidfds by what
// they are open on: the descriptors a run opens for itself. (The reaper
// keeps a file per thread open for its sweeps.)
func openDescriptors(t *testing.T) map[string]int {
	t.Helper()
	ents, err := os.ReadDir("/proc/self/fd")
	if err != nil {
		t.Fatal(err)
	}
	open := map[string]int{}
	for _, e := range ents {
		to, err := os.Readlink("/proc/self/fd/" + e.Name())
		if err == nil && (strings.HasPrefix(to, "pipe:") || to == "anon_inode:[pidfd]") {
			open[to]++
		}
	}
	return open
}

// TestLocalRun_LeavesNoDescriptorOpen ends runs every way a run ends, read
// both ways (alone and through the poller), and checks that the runner
// holds no more descriptors afterwards than before: the pipes' read ends,
// this process's copies of the child's ends, and the pidfd are all closed
// whichever way the run went.
func TestLocalRun_LeavesNoDescriptorOpen(t *testing.T) {
	const grace = 200 * time.Millisecond
	tests := []struct {
		name   string
		cmd    Command
		cancel bool // cancel the run once it has said "ready"
	}{
		{name: "exit", cmd: helperCmd(t, "exit", "0")},
		{name: "output on both streams", cmd: helperCmd(t, "flood", "both", "200000", "lines")},
		{name: "timed out", cmd: with(helperCmd(t, "ready"), func(c *Command) { c.Timeout = MinTimeout })},
		{name: "cancelled", cmd: helperCmd(t, "ready"), cancel: true},
		{name: "over the cap, killed", cmd: with(helperCmd(t, "flood", "stdout", "67108864", "lines"), func(c *Command) { c.MaxOutput, c.OnOverflow = 1<<16, Kill })},
		{name: "a leftover holds stdout", cmd: helperCmd(t, "leave", "group")},
		{name: "not started", cmd: Command{Path: "/nonexistent/assent-test", Argv: []string{"x"}}},
	}
	for _, busy := range []bool{false, true} {
		l := NewLocal(Options{Grace: grace, WaitDelay: grace})
		l.simulate.busy = busy
		t.Cleanup(func() { l.Close() })
		for _, tt := range tests {
			t.Run(map[bool]string{false: "alone", true: "polled"}[busy]+"/"+tt.name, func(t *testing.T) {
				before := openDescriptors(t)
				ctx, cancel := context.WithCancel(context.Background())
				defer cancel()
				var out func(Chunk)
				if tt.cancel {
					out = func(c Chunk) {
						if bytes.Contains(c.Data, []byte("ready\n")) {
							cancel()
						}
					}
				}
				if res := l.Run(ctx, tt.cmd, out); tt.cancel && !res.Cancelled {
					t.Fatalf("the run was not cancelled: %+v", res)
				}
				if after := openDescriptors(t); !maps.Equal(after, before) {
					t.Errorf("open before the run: %v; after: %v", before, after)
				}
			})
		}
	}
}
