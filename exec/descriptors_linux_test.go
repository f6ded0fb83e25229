//go:build linux

package exec

import (
	"bytes"
	"context"
	"fmt"
	"maps"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"golang.org/x/sys/unix"
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
// both ways (alone and through the poller) and started without staging
// (see stage), and checks that the runner
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
	for _, way := range []struct {
		name string
		sim  simulated
	}{{"alone", simulated{}}, {"polled", simulated{busy: true}}, {"unstaged", simulated{noStage: true}}} {
		l := NewLocal(Options{Grace: grace, WaitDelay: grace})
		l.simulate = way.sim
		t.Cleanup(func() { l.Close() })
		for _, tt := range tests {
			t.Run(way.name+"/"+tt.name, func(t *testing.T) {
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

// TestLocalRun_ChildStartsWithItsStreamsAlone shows that a program starts
// with stdin, stdout and stderr and no other descriptor, not even one this
// process holds without close-on-exec (as a careless library might open
// one): with its descriptors below stageFrom, where the child keeps them
// where they are, and above it, where they are staged; with its program
// pinned or not, sandboxed or not. After each start, the slots hold
// /dev/null again, and no end of the child's pipes.
func TestLocalRun_ChildStartsWithItsStreamsAlone(t *testing.T) {
	leak, err := unix.Open("/dev/null", unix.O_RDONLY, 0) // inherited by every plain fork
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { unix.Close(leak) })
	l := NewLocal(Options{})
	t.Cleanup(func() { l.Close() })
	plain := helperCmd(t, "fds")
	id, err := IdentityOf(plain.Path, true)
	if err != nil {
		t.Fatal(err)
	}
	pinned := with(plain, func(c *Command) { c.Program = id })
	boxed := with(pinned, func(c *Command) { c.Sandbox = &Sandbox{Read: []string{t.TempDir()}} })
	for _, high := range []bool{false, true} {
		if high {
			fillBelowStageFrom(t)
		}
		for name, cmd := range map[string]Command{"plain": plain, "pinned": pinned, "sandboxed": boxed} {
			t.Run(map[bool]string{false: "low", true: "staged"}[high]+"/"+name, func(t *testing.T) {
				res := l.Run(context.Background(), cmd, nil)
				if got := string(res.Stdout.Data); res.ExitCode != 0 || got != "0 1 2" {
					t.Fatalf("the program started with descriptors %q (exit %d, %s); want \"0 1 2\"", got, res.ExitCode, res.Stderr.Data)
				}
				for _, fd := range l.os.stage.slots() {
					if to, err := os.Readlink("/proc/self/fd/" + strconv.Itoa(fd)); to != "/dev/null" {
						t.Errorf("slot %d holds %q (%v) after the start", fd, to, err)
					}
				}
			})
		}
	}
}

// TestLocalRun_StagedStartsAtOnceKeepTheirOwnStreams starts many runs at
// once with their descriptors above stageFrom, more than there are sets of
// slots: each run reads its own child's output, and its child alone.
func TestLocalRun_StagedStartsAtOnceKeepTheirOwnStreams(t *testing.T) {
	l := NewLocal(Options{})
	t.Cleanup(func() { l.Close() })
	fillBelowStageFrom(t)
	const runs = 8 * stageSets
	errs := make(chan error, runs)
	for i := range runs {
		go func() {
			want := "run-" + strconv.Itoa(i)
			for range 5 {
				res := l.Run(context.Background(), helperCmd(t, "args", want), nil)
				if got := string(res.Stdout.Data); res.ExitCode != 0 || got != want {
					errs <- fmt.Errorf("run %d printed %q (exit %d, start error %q)", i, got, res.ExitCode, res.StartError)
					return
				}
			}
			errs <- nil
		}()
	}
	for range runs {
		if err := <-errs; err != nil {
			t.Error(err)
		}
	}
}

// fillBelowStageFrom opens /dev/null until a descriptor comes at stageFrom
// or above, so that the runs after it get their pipes above it and are
// staged; the test's end closes them.
func fillBelowStageFrom(t *testing.T) {
	for {
		fd, err := unix.Open("/dev/null", unix.O_RDONLY|unix.O_CLOEXEC, 0)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { unix.Close(fd) })
		if fd >= stageFrom {
			return
		}
	}
}
