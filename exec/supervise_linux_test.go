//go:build linux

package exec

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"os"
	osexec "os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// pidsOf parses the "PID [PID]" line a helper prints first.
func pidsOf(data []byte) (leader, grandchild int, err error) {
	_, err = fmt.Sscanf(string(data), "%d %d\n", &leader, &grandchild)
	return leader, grandchild, err
}

func TestLocalRun_StubbornGroupIsKilledWithinTheBound(t *testing.T) {
	// The child ignores SIGTERM and leaves a grandchild, also ignoring it,
	// that holds stdout open. Only SIGKILL to the whole group ends them.
	// slack is the "small bound" past the grace, generous for a busy machine.
	const grace = 300 * time.Millisecond
	const slack = 3 * time.Second
	tests := []struct {
		name    string
		timeout time.Duration // zero: cancel as soon as the pids are known
	}{
		{name: "cancelled"},
		{name: "timed out", timeout: time.Second},
	}
	l := NewLocal(Options{Grace: grace, WaitDelay: 300 * time.Millisecond})
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			var (
				once     sync.Once
				seen     error // what was wrong with the group while it ran
				endStart time.Time
			)
			out := func(c Chunk) {
				once.Do(func() {
					leader, gpid, err := pidsOf(c.Data)
					if err == nil {
						seen = requireAliveIn(leader, gpid)
					} else {
						seen = fmt.Errorf("first output %q: %v", c.Data, err)
					}
					if tt.timeout == 0 {
						endStart = time.Now()
						cancel()
					}
				})
			}
			cmd := helperCmd(t, "stubborn")
			cmd.Timeout = tt.timeout
			if cmd.Timeout == 0 {
				cmd.Timeout = time.Minute
			}
			start := time.Now()
			res := l.Run(ctx, cmd, out)
			end := time.Now()
			if tt.timeout != 0 {
				endStart = start.Add(tt.timeout)
			}

			leader, _, err := pidsOf(res.Stdout.Data)
			if err != nil {
				t.Fatalf("stdout %q: %v", res.Stdout.Data, err)
			}
			if seen != nil {
				t.Fatalf("while running: %v", seen)
			}
			if res.Cancelled != (tt.timeout == 0) || res.TimedOut != (tt.timeout != 0) {
				t.Errorf("Cancelled %v, TimedOut %v; want the %s", res.Cancelled, res.TimedOut, tt.name)
			}
			if res.Signal != "SIGKILL" || res.ExitCode != 137 {
				t.Errorf("signal %q, exit %d; want SIGKILL, 137", res.Signal, res.ExitCode)
			}
			if took := end.Sub(endStart); took < grace || took > grace+slack {
				t.Errorf("Run returned %v after the end began, want within [%v, %v]", took, grace, grace+slack)
			}
			requireGroupGone(t, leader)
		})
	}
}

func TestLocalRun_LeftoversCannotHoldTheCallOpen(t *testing.T) {
	// The child exits at once, leaving a grandchild that ignores SIGTERM and
	// holds stdout open: in the child's group, where the kill at exit ends
	// it, or in a session of its own, out of the group's reach, where the
	// subreaper still brings it back to be ended, and where with only the
	// group to go by WaitDelay ends the wait for it.
	const slack = 3 * time.Second
	tests := []struct {
		name        string
		where       string
		containment Containment
		waitDelay   time.Duration
		wantAlive   bool // the grandchild outlives the run
	}{
		{name: "grandchild in the group is killed at exit", where: "group", waitDelay: 10 * time.Second},
		{name: "grandchild in its own session is killed at exit", where: "session", waitDelay: 10 * time.Second},
		{name: "grandchild in its own session is cut off when only the group is held", where: "session",
			containment: ContainGroup, waitDelay: 300 * time.Millisecond, wantAlive: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			l := NewLocal(Options{WaitDelay: tt.waitDelay, Containment: tt.containment})
			t.Cleanup(func() { l.Close() })
			start := time.Now()
			res := l.Run(context.Background(), helperCmd(t, "leave", tt.where), nil)
			took := time.Since(start)

			leader, gpid, err := pidsOf(res.Stdout.Data)
			if err != nil {
				t.Fatalf("stdout %q: %v", res.Stdout.Data, err)
			}
			t.Cleanup(func() { killAndReap(gpid) })
			if res.ExitCode != 0 || res.Signal != "" || res.TimedOut || res.Cancelled {
				t.Errorf("exit %d, signal %q, TimedOut %v, Cancelled %v; want a clean exit", res.ExitCode, res.Signal, res.TimedOut, res.Cancelled)
			}
			if tt.wantAlive {
				// Otherwise requireGone below checks it is gone.
				if e, err := readStat(gpid); err != nil || e.state == 'Z' {
					t.Errorf("escaped grandchild not running after the run (%+v, %v): nothing held the pipe", e, err)
				}
			} else {
				requireGone(t, gpid)
			}
			// Held pipes are waited for WaitDelay only when nothing could end
			// their holder.
			lo, hi := time.Duration(0), slack
			if tt.wantAlive {
				lo, hi = tt.waitDelay, tt.waitDelay+slack
			}
			if took < lo || took > hi {
				t.Errorf("Run took %v, want within [%v, %v]", took, lo, hi)
			}
			requireGroupGone(t, leader)
		})
	}
}

// requireAliveIn reports an error unless both pids are running processes in
// process group leader.
func requireAliveIn(leader int, pids ...int) error {
	for _, pid := range append([]int{leader}, pids...) {
		e, err := readStat(pid)
		if err != nil {
			return err
		}
		if e.state == 'Z' || e.pgid != leader {
			return fmt.Errorf("process %d: state %c, group %d; want running in group %d", pid, e.state, e.pgid, leader)
		}
	}
	return nil
}

func TestLocalRun_OwnGroupAndOptionalSession(t *testing.T) {
	self, err := readStat(os.Getpid())
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name       string
		newSession bool
	}{
		{name: "own group in the server's session"},
		{name: "own session with no terminal", newSession: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := NewLocal(Options{NewSession: tt.newSession}).Run(context.Background(), helperCmd(t, "stat"), nil)
			e, err := parseStat(string(res.Stdout.Data))
			if err != nil {
				t.Fatal(err)
			}
			if e.pgid != e.pid || e.ppid != os.Getpid() {
				t.Errorf("child %d (parent %d) is in group %d; want a child of this process leading its own group", e.pid, e.ppid, e.pgid)
			}
			wantSid, wantTty := self.sid, self.tty
			if tt.newSession {
				wantSid, wantTty = e.pid, 0
			}
			if e.sid != wantSid || e.tty != wantTty {
				t.Errorf("child is in session %d with terminal %#x; want %d, %#x", e.sid, e.tty, wantSid, wantTty)
			}
		})
	}
}

func TestLocalRun_StoppedChildEndsWithoutTheGrace(t *testing.T) {
	// A stopped process holds SIGTERM pending until it runs again; the
	// runner's SIGCONT lets it act on it now rather than at SIGKILL.
	const grace = 10 * time.Second
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var stopped error
	var once sync.Once
	out := func(c Chunk) {
		once.Do(func() {
			var pid int
			if _, err := fmt.Sscanf(string(c.Data), "%d", &pid); err != nil {
				stopped = fmt.Errorf("first output %q: %v", c.Data, err)
				cancel()
				return
			}
			stopped = waitState(pid, 'T', 5*time.Second)
			cancel()
		})
	}
	cmd := helperCmd(t, "stop")
	cmd.Timeout = time.Minute
	res := NewLocal(Options{Grace: grace}).Run(ctx, cmd, out)
	if stopped != nil {
		t.Fatalf("the child never stopped: %v", stopped)
	}
	if !res.Cancelled || res.Signal != "SIGTERM" {
		t.Errorf("Cancelled %v, signal %q; want true, SIGTERM (SIGKILL means it sat out the grace)", res.Cancelled, res.Signal)
	}
	if res.Duration >= grace {
		t.Errorf("run took %v, want less than the %v grace", res.Duration, grace)
	}
}

// waitState polls until process pid is in state, or fails after d.
func waitState(pid int, state byte, d time.Duration) error {
	deadline := time.Now().Add(d)
	for {
		e, err := readStat(pid)
		if err == nil && e.state == state {
			return nil
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("process %d: state %c, %v; want %c", pid, e.state, err, state)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

func TestLocalRun_ReapsEveryChild(t *testing.T) {
	// Every way a run can end, several at once; afterwards this process
	// has no child left, not even a zombie.
	l := NewLocal(Options{Grace: 200 * time.Millisecond})
	sleep := Command{Path: "/bin/sleep", Argv: []string{"sleep", "10"}, Timeout: MinTimeout}
	cmds := []Command{
		helperCmd(t, "exit", "0"),
		helperCmd(t, "exit", "7"),
		helperCmd(t, "signal", "KILL"),
		helperCmd(t, "leave", "group"),
		sleep,
		{Path: "/nonexistent/program", Argv: []string{"program"}},
	}
	ctx, cancel := context.WithTimeout(context.Background(), 150*time.Millisecond)
	defer cancel()
	var wg sync.WaitGroup
	for range 3 {
		for _, c := range cmds {
			wg.Go(func() { l.Run(context.Background(), c, nil) })
		}
		wg.Go(func() { l.Run(ctx, helperCmd(t, "ready"), nil) })
	}
	wg.Wait()
	dirs, _ := filepath.Glob("/proc/[0-9]*")
	for _, d := range dirs {
		pid, _ := strconv.Atoi(filepath.Base(d))
		if e, err := readStat(pid); err == nil && e.ppid == os.Getpid() {
			t.Errorf("child %d of this process is still there, state %c", pid, e.state)
		}
	}
}

func TestReaper_HasChildrenSeesAChildOfAnyThreadUntilReaped(t *testing.T) {
	// The run's final sweep is skipped when hasChildren says no: it must
	// count a child forked by another thread, running or a zombie, and
	// say no only once it is reaped.
	var rp reaper
	if rp.hasChildren() {
		t.Fatal("a child before any was started: an earlier test left one")
	}
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	c := osexec.Command(exe)
	c.Env = helperEnviron("ready")
	out, err := c.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	started, release := make(chan error), make(chan struct{})
	go func() {
		runtime.LockOSThread() // its child is this thread's, never the test's
		defer runtime.UnlockOSThread()
		started <- c.Start()
		<-release
	}()
	defer close(release)
	if err := <-started; err != nil {
		t.Fatal(err)
	}
	if _, err := bufio.NewReader(out).ReadString('\n'); err != nil {
		t.Fatalf("helper did not announce itself: %v", err)
	}
	if !rp.hasChildren() {
		t.Error("a running child of another thread is not counted")
	}
	_ = c.Process.Kill()
	var info unix.Siginfo
	if err := unix.Waitid(unix.P_PID, c.Process.Pid, &info, unix.WEXITED|unix.WNOWAIT, nil); err != nil {
		t.Fatalf("waiting for the child to exit: %v", err)
	}
	if !rp.hasChildren() {
		t.Error("a zombie child is not counted")
	}
	var exit *osexec.ExitError
	if err := c.Wait(); !errors.As(err, &exit) || exit.Sys().(syscall.WaitStatus).Signal() != syscall.SIGKILL {
		t.Fatalf("reaping the child after hasChildren: %v, want its SIGKILL (hasChildren must not reap)", err)
	}
	if rp.hasChildren() {
		t.Error("a child is still counted after it was reaped")
	}
}

func TestLocalRun_ConcurrentRunsKeepTheirExitCodes(t *testing.T) {
	// Each run reaps its own leader; nothing a sweep or its check does
	// may take another run's exit status.
	l := NewLocal(Options{})
	defer l.Close()
	var wg sync.WaitGroup
	for i := range 12 {
		code := 3 + i%5
		cmd := helperCmd(t, "exit", strconv.Itoa(code))
		wg.Go(func() {
			if res := l.Run(context.Background(), cmd, nil); res.ExitCode != code {
				t.Errorf("run %d: exit %d (%s), want %d", i, res.ExitCode, res.StartError, code)
			}
		})
	}
	wg.Wait()
}

func TestReaper_ReapedLeadersNumberIsNotTheCallsForALaterProcess(t *testing.T) {
	// Once a leader is reaped its pid may be given again. A process that
	// then has that number as its group, started after the reap, is not
	// the ended call's: with another call running since before it
	// started, the sweep must leave it to that call's end.
	rp := sweepReaper(t)
	other := &run{}
	rp.begin(other) // a call running since before the stranger started
	time.Sleep(2 * time.Duration(clockTick))
	// The stranger is this thread's child, where the sweep looks for
	// children of the forking thread.
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	ended := &run{p: process{tid: unix.Gettid()}}
	rp.begin(ended)
	rp.reaped(ended) // its leader is reaped before the stranger starts
	time.Sleep(2 * time.Duration(clockTick))
	c, ready := readyHelper(t, &syscall.SysProcAttr{Setpgid: true}) // its own group, numbered by its pid
	if err := c.Start(); err != nil {
		t.Fatal(err)
	}
	ready()
	ended.p.pid = c.Process.Pid // the stranger got the reaped leader's number
	if got, _ := rp.escaped(ended, 0); len(got) != 0 {
		t.Fatalf("the sweep of the ended call would end %v, a later process in a group of its leader's old number", got)
	}
	// Reaped after it started, the same process is the call's: one of its
	// leader's group.
	time.Sleep(time.Duration(clockTick))
	rp.mu.Lock()
	lr := rp.live[ended]
	lr.reaped = rp.now()
	rp.live[ended] = lr
	rp.mu.Unlock()
	if got, _ := rp.escaped(ended, 0); len(got) != 1 || got[0] != c.Process.Pid {
		t.Fatalf("escaped = %v, want the process of the call's group, %d", got, c.Process.Pid)
	}
}

func TestReaper_AProcessPutOffUnderAThreadIsSweptByALaterRunFromAnother(t *testing.T) {
	// A leader's CLONE_PARENT child is the forking thread's. When the
	// ended call's sweep puts it off for a call still running, the end of
	// that call, whose run forked from another thread, must still find it.
	rp := sweepReaper(t)
	other := &run{p: process{tid: rp.pid}} // a call running since before, forked from the main thread
	rp.begin(other)
	time.Sleep(2 * time.Duration(clockTick))
	// The escapee is a child of a thread that is neither the main one nor
	// other's: one locked for this, with another locked first should the
	// first land on the main thread.
	c, ready := readyHelper(t, &syscall.SysProcAttr{Setsid: true}) // out of every call's group and session
	type forked struct {
		tid int
		err error
	}
	done, release := make(chan forked), make(chan struct{})
	defer close(release)
	var fork func(hold bool)
	fork = func(hold bool) {
		runtime.LockOSThread()
		defer runtime.UnlockOSThread()
		if tid := unix.Gettid(); tid == rp.pid && hold {
			go fork(false) // this thread stays held, so the next cannot be it
		} else {
			done <- forked{tid, c.Start()}
		}
		<-release
	}
	go fork(true)
	f := <-done
	if f.err != nil {
		t.Fatal(f.err)
	}
	ready()
	ended := &run{p: process{tid: f.tid, pid: -1}}
	rp.begin(ended)
	if got, _ := rp.escaped(ended, 0); len(got) != 0 {
		t.Fatalf("the ended call's sweep ended %v, which may be the running call's", got)
	}
	rp.finish(ended)
	if got, _ := rp.escaped(other, 0); len(got) != 1 || got[0] != c.Process.Pid {
		t.Fatalf("the last call's sweep found %v, want the process put off, %d, a child of thread %d", got, c.Process.Pid, f.tid)
	}
	// Once the thread has no child left, sweeps stop reading it.
	_ = c.Process.Kill()
	_ = c.Wait()
	_, _ = rp.escaped(other, 0)
	rp.mu.Lock()
	defer rp.mu.Unlock()
	if len(rp.revisit) != 0 {
		t.Fatalf("threads still revisited with no child left: %v", rp.revisit)
	}
}

// sweepReaper is a reaper of its own for a test of the sweep's choices,
// closed with the test.
func sweepReaper(t *testing.T) *reaper {
	t.Helper()
	rp := &reaper{}
	if !rp.enable() {
		t.Skip("this process cannot be a child subreaper")
	}
	t.Cleanup(rp.close)
	return rp
}

// readyHelper is a "ready" helper with attr, for the caller to start
// where it must; ready waits for it to announce itself, and the test's
// end kills and reaps it.
func readyHelper(t *testing.T, attr *syscall.SysProcAttr) (c *osexec.Cmd, ready func()) {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	c = osexec.Command(exe)
	c.Env = helperEnviron("ready")
	c.SysProcAttr = attr
	out, err := c.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	return c, func() {
		t.Helper()
		t.Cleanup(func() { _ = c.Process.Kill(); _ = c.Wait() })
		if _, err := bufio.NewReader(out).ReadString('\n'); err != nil {
			t.Fatalf("helper did not announce itself: %v", err)
		}
	}
}

func TestReaper_ChildrenOfListsEveryChild(t *testing.T) {
	// A thread's children file is longer than a page once it lists a
	// thousand children; a look that read one page would miss those after,
	// and a call that left zombies in front of its escapees would hide
	// them from every sweep.
	const n = 1000
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	tid := unix.Gettid()
	want := make(map[int]bool)
	t.Cleanup(func() {
		for pid := range want {
			var ws syscall.WaitStatus
			_, _ = syscall.Wait4(pid, &ws, 0, nil)
		}
	})
	for range n {
		pid, err := syscall.ForkExec("/bin/true", []string{"true"}, &syscall.ProcAttr{})
		if err != nil {
			t.Fatal(err)
		}
		want[pid] = true
	}
	var rp reaper
	rp.pid = os.Getpid()
	t.Cleanup(rp.close)
	cached, read := rp.childrenOf(tid)
	for name, got := range map[string][]int{"cached": cached, "opened": childrenOf(os.Getpid(), tid)} {
		missing := 0
		seen := make(map[int]bool)
		for _, pid := range got {
			seen[pid] = true
		}
		for pid := range want {
			if !seen[pid] {
				missing++
			}
		}
		if missing > 0 || name == "cached" && !read {
			t.Errorf("%s children file: %d of the thread's %d children missing (%d listed)", name, missing, n, len(got))
		}
	}
}

func TestReaper_SweepKnowsALeaderBeingForked(t *testing.T) {
	// A run's leader is in this process's children files from the moment
	// it is forked, before its run has recorded it. Other runs' sweeps
	// then read its /proc status, only to put it off, which with many
	// calls in flight was most of what a sweep read. The kernel writes the
	// leader's pid where the run keeps it as it forks it, so a sweep takes
	// the process for a leader without a look. Here a leader is forked as
	// a run does and left unrecorded, as it is until its fork returns.
	l := NewLocal(Options{})
	t.Cleanup(func() { l.Close() })
	if l.containment() != ContainSubreaper || !l.rawFork() {
		t.Skip("needs the subreaper and the runner's own fork")
	}
	null, err := l.os.devnull()
	if err != nil {
		t.Fatal(err)
	}
	rp := &l.os.reaper
	forking := &run{l: l}
	rp.begin(forking)
	t.Cleanup(func() { rp.finish(forking) })
	ln := &launch{setup: setup{execFD: -1, files: [3]int{null, null, null}, netns: -1, rules: -1},
		path: "/bin/sleep", argv: []string{"sleep", "30"}, envp: l.os.baseEnvp, wantTID: true, announce: &forking.announced}
	pid, pidfd, tid, err := rawStart(ln, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = unix.Kill(pid, unix.SIGKILL)
		reapChild(pid)
		unix.Close(pidfd)
	})
	if got := atomic.LoadInt32(&forking.announced); got != int32(pid) {
		t.Fatalf("the kernel announced pid %d for the leader %d", got, pid)
	}
	// Another run sweeps, reading the forking thread's children too.
	// Its own leader's number is one no process has: not 0, which /proc
	// shows as the group and session of a process whose leader is outside
	// this pid namespace (a container's), and which the sweep would then
	// take for the run's own.
	sweeping := &run{l: l}
	sweeping.p.pid, sweeping.p.tid = -1, tid
	rp.begin(sweeping)
	t.Cleanup(func() { rp.finish(sweeping) })
	looks := func() int64 {
		t.Helper()
		before := rp.looked.Load()
		if out, _ := rp.escaped(sweeping, 0); slices.Contains(out, pid) {
			t.Fatalf("the sweep took the leader being forked (%d) for an escapee: %v", pid, out)
		}
		return rp.looked.Load() - before
	}
	announced := looks()
	atomic.StoreInt32(&forking.announced, 0) // as before the kernel wrote it
	unannounced := looks()
	if announced != unannounced-1 {
		t.Errorf("the sweep read %d statuses with the leader announced and %d without; want one fewer", announced, unannounced)
	}
}
