//go:build linux

package exec

import (
	"bytes"
	"context"
	"fmt"
	"maps"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
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
// one, or as assent may inherit one): with its descriptors low, where the
// child keeps them where they are, and staged in slots, as a process
// holding many descriptors stages them; with its program pinned or not,
// sandboxed or not. After each start, the slots hold /dev/null again, and
// no end of the child's pipes.
func TestLocalRun_ChildStartsWithItsStreamsAlone(t *testing.T) {
	leak, err := unix.Open("/dev/null", unix.O_RDONLY, 0) // inherited by every plain fork
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { unix.Close(leak) })
	low, staged := NewLocal(Options{}), NewLocal(Options{})
	staged.simulate.stageAlways = true
	t.Cleanup(func() { low.Close(); staged.Close() })
	plain := helperCmd(t, "fds")
	id, err := IdentityOf(plain.Path, true)
	if err != nil {
		t.Fatal(err)
	}
	pinned := with(plain, func(c *Command) { c.Program = id })
	boxed := with(pinned, func(c *Command) { c.Sandbox = &Sandbox{Read: []string{t.TempDir()}} })
	requireStaging(t, low)
	requireStaging(t, staged)
	for _, l := range []*Local{low, staged} {
		for name, cmd := range map[string]Command{"plain": plain, "pinned": pinned, "sandboxed": boxed} {
			t.Run(map[bool]string{false: "low", true: "staged"}[l.simulate.stageAlways]+"/"+name, func(t *testing.T) {
				before := l.os.stage.staged.Load()
				res := l.Run(context.Background(), cmd, nil)
				if got := string(res.Stdout.Data); res.ExitCode != 0 || got != "0 1 2" {
					t.Fatalf("the program started with descriptors %q (exit %d, %s); want \"0 1 2\"", got, res.ExitCode, res.Stderr.Data)
				}
				// A low start stages only if this process's table is full
				// below stageFrom, which other tests' leftovers may do.
				if n := l.os.stage.staged.Load() - before; l.simulate.stageAlways && n != 1 {
					t.Errorf("%d starts used a set of slots; want 1", n)
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
// once, each staged, more than there are sets of slots and with one set
// held throughout: each run reads its own child's output, and its child
// alone, and none waits for the set held.
func TestLocalRun_StagedStartsAtOnceKeepTheirOwnStreams(t *testing.T) {
	l := NewLocal(Options{})
	l.simulate.stageAlways = true
	t.Cleanup(func() { l.Close() })
	requireStaging(t, l)
	// A set no start gives back (an exec that hangs) holds up none of them.
	stuck := l.os.stage.take()
	t.Cleanup(func() { l.os.stage.release(stuck, 0) })
	before := l.os.stage.staged.Load()
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
	timeout := time.After(time.Minute)
	for range runs {
		select {
		case err := <-errs:
			if err != nil {
				t.Error(err)
			}
		case <-timeout:
			t.Fatal("the runs did not end: a start waits for the set held")
		}
	}
	if staged := l.os.stage.staged.Load() - before; staged != 5*runs {
		t.Errorf("%d starts used a set of slots; want %d", staged, 5*runs)
	}
}

// requireStaging runs a child, which finds out whether this system can
// stage descriptors, and skips the test where it cannot (a kernel before
// 5.9): there a child gets the whole table, as os/exec's does.
func requireStaging(t *testing.T, l *Local) {
	t.Helper()
	if res := l.Run(context.Background(), Command{Path: "/bin/true", Argv: []string{"true"}}, nil); res.ExitCode != 0 {
		t.Fatalf("/bin/true: %+v", res)
	}
	if !l.os.staged {
		t.Skip("this system cannot stage a child's descriptors (no CLOSE_RANGE_UNSHARE)")
	}
}

// TestLocalRun_PinnedProgramWithStdinClosed runs a pinned program from a
// process whose stdin is closed. The program's descriptor then opened as 0,
// and the child, putting its own stdin there, executed that instead of the
// program (exit 126, permission denied).
func TestLocalRun_PinnedProgramWithStdinClosed(t *testing.T) {
	saved, err := unix.FcntlInt(0, unix.F_DUPFD_CLOEXEC, 3)
	if err != nil {
		t.Fatal(err)
	}
	unix.Close(0)
	t.Cleanup(func() {
		if err := unix.Dup3(saved, 0, 0); err != nil {
			t.Errorf("restoring stdin: %v", err)
		}
		unix.Close(saved)
	})
	id, err := IdentityOf("/bin/true", true)
	if err != nil {
		t.Fatal(err)
	}
	for _, sim := range []simulated{{}, {noStage: true}} {
		l := NewLocal(Options{})
		l.simulate = sim
		t.Cleanup(func() { l.Close() })
		if res := l.Run(context.Background(), Command{Path: "/bin/true", Argv: []string{"true"}, Program: id}, nil); res.ExitCode != 0 {
			t.Errorf("staging off %v: exit %d, start error %q", sim.noStage, res.ExitCode, res.StartError)
		}
	}
}

// TestLocal_CloseClosesTheSlots shows that Close gives back the slots'
// descriptors at once, not when the collector finds the Local, even when
// called twice at once, and that a start after it still runs, unstaged,
// rather than staging into descriptors that may since be another file's.
func TestLocal_CloseClosesTheSlots(t *testing.T) {
	l := NewLocal(Options{})
	l.simulate.stageAlways = true
	requireStaging(t, l)
	slots := l.os.stage.slots()
	done := make(chan struct{})
	go func() { l.Close(); close(done) }()
	l.Close()
	<-done
	for _, fd := range slots {
		if to, err := os.Readlink("/proc/self/fd/" + strconv.Itoa(fd)); err == nil && to == "/dev/null" {
			t.Errorf("slot %d is still open on /dev/null after Close", fd)
		}
	}
	before := l.os.stage.staged.Load()
	res := l.Run(context.Background(), helperCmd(t, "args", "after"), nil)
	if res.ExitCode != 0 || string(res.Stdout.Data) != "after" {
		t.Errorf("a start after Close: exit %d, stdout %q, start error %q", res.ExitCode, res.Stdout.Data, res.StartError)
	}
	if l.os.stage.staged.Load()-before != 1 {
		t.Error("the start after Close did not ask for a set of slots")
	}
}

// TestSealInherited shows a descriptor held without close-on-exec reaching
// a child that copies the whole table (the runner unstaged, as on a kernel
// before 5.9), and no longer once SealInherited, or its fallback by
// /proc/self/fd, has marked it.
func TestSealInherited(t *testing.T) {
	l := NewLocal(Options{})
	l.simulate.noStage = true
	t.Cleanup(func() { l.Close() })
	for name, seal := range map[string]func() error{"close_range": SealInherited, "listed": sealListed} {
		t.Run(name, func(t *testing.T) {
			leak, err := unix.Open("/dev/null", unix.O_RDONLY, 0)
			if err != nil {
				t.Fatal(err)
			}
			defer unix.Close(leak)
			fds := func() []string {
				res := l.Run(context.Background(), helperCmd(t, "fds"), nil)
				return strings.Fields(string(res.Stdout.Data))
			}
			if got := fds(); !slices.Contains(got, strconv.Itoa(leak)) {
				t.Fatalf("the unsealed descriptor %d did not reach the child (it had %q): the test shows nothing", leak, got)
			}
			if err := seal(); err != nil {
				t.Fatal(err)
			}
			if flags, err := unix.FcntlInt(uintptr(leak), unix.F_GETFD, 0); err != nil || flags&unix.FD_CLOEXEC == 0 {
				t.Errorf("descriptor %d flags %#x (%v) after sealing; want FD_CLOEXEC", leak, flags, err)
			}
			if got := fds(); slices.Contains(got, strconv.Itoa(leak)) {
				t.Errorf("the sealed descriptor %d reached the child: %q", leak, got)
			}
		})
	}
}

// TestStage_CloseTwiceAtOnce closes fresh stages from two goroutines at
// once, many times: each time one close closes the slots, and neither
// closes the channel a second time (a panic) or gives up on sets the other
// took.
func TestStage_CloseTwiceAtOnce(t *testing.T) {
	null, err := unix.Open("/dev/null", unix.O_RDONLY|unix.O_CLOEXEC, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer unix.Close(null)
	for round := range 3000 {
		st, err := newStage(null)
		if err != nil {
			t.Fatal(err)
		}
		var wg sync.WaitGroup
		panics := make(chan any, 2)
		start := make(chan struct{})
		for range 2 {
			wg.Go(func() {
				defer func() {
					if p := recover(); p != nil {
						panics <- p
					}
				}()
				<-start
				st.close()
			})
		}
		close(start)
		wg.Wait()
		close(panics)
		for p := range panics {
			t.Fatalf("round %d: close panicked: %v", round, p)
		}
		if !st.closed {
			t.Fatalf("round %d: neither close closed the slots", round)
		}
	}
}
