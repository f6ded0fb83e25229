//go:build linux

package exec

import (
	"bytes"
	"context"
	"fmt"
	"os"
	osexec "os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"sync"
	"syscall"
	"testing"
	"time"
)

// markedProcesses lists the live processes whose arguments include marker.
// A zombie has no arguments left, so it is not listed: it has ended.
func markedProcesses(marker string) []int {
	dirs, _ := filepath.Glob("/proc/[0-9]*")
	var out []int
	for _, d := range dirs {
		b, err := os.ReadFile(d + "/cmdline")
		if err == nil && bytes.Contains(b, []byte(marker)) {
			pid, _ := strconv.Atoi(filepath.Base(d))
			out = append(out, pid)
		}
	}
	return out
}

// liveInGroup lists the processes of group pgid that have not exited.
func liveInGroup(pgid int) []int {
	dirs, _ := filepath.Glob("/proc/[0-9]*")
	var out []int
	for _, d := range dirs {
		pid, _ := strconv.Atoi(filepath.Base(d))
		if e, err := readStat(pid); err == nil && e.pgid == pgid && e.state != 'Z' {
			out = append(out, pid)
		}
	}
	return out
}

// childrenOfTest lists this test process's children, zombies included.
func childrenOfTest() []procEntry {
	dirs, _ := filepath.Glob("/proc/[0-9]*")
	var out []procEntry
	for _, d := range dirs {
		pid, _ := strconv.Atoi(filepath.Base(d))
		if e, err := readStat(pid); err == nil && e.ppid == os.Getpid() {
			out = append(out, e)
		}
	}
	return out
}

// endOnReady returns a context cancelled when the run first prints
// "ready", and the output callback that does it.
func endOnReady() (context.Context, context.CancelFunc, func(Chunk)) {
	ctx, cancel := context.WithCancel(context.Background())
	var once sync.Once
	return ctx, cancel, func(c Chunk) {
		if bytes.Contains(c.Data, []byte("ready")) {
			once.Do(cancel)
		}
	}
}

func TestLocalRun_NothingEscapes(t *testing.T) {
	// The call leaves a process behind that ignores SIGTERM and holds none
	// of its pipes, out of the call's process group: one in a session of its
	// own (setsid), one in a group of its own orphaned by a parent that
	// exits at once (a double fork). However the call ends, no process of
	// it is left when Run returns.
	const slack = 5 * time.Second
	type ending struct {
		name  string
		then  string // the leader, once the escapee runs: "wait" or "exit"
		setup func(*Command) (context.Context, func(Chunk), func())
	}
	endings := []ending{
		{name: "exit", then: "exit", setup: func(*Command) (context.Context, func(Chunk), func()) {
			return context.Background(), nil, func() {}
		}},
		{name: "timeout", then: "wait", setup: func(c *Command) (context.Context, func(Chunk), func()) {
			c.Timeout = time.Second
			return context.Background(), nil, func() {}
		}},
		{name: "cancel", then: "wait", setup: func(*Command) (context.Context, func(Chunk), func()) {
			ctx, cancel, out := endOnReady()
			return ctx, out, cancel
		}},
	}
	for _, containment := range []Containment{ContainAuto, ContainPIDNamespace} {
		l := NewLocal(Options{Containment: containment, Grace: 200 * time.Millisecond, WaitDelay: 200 * time.Millisecond})
		t.Cleanup(func() { l.Close() })
		got := l.Probe().Containment
		for _, how := range []string{"setsid", "double", "join", "mainexit"} {
			for _, e := range endings {
				t.Run(fmt.Sprintf("%s/%s/%s", got, how, e.name), func(t *testing.T) {
					if containment != ContainAuto && got != containment {
						t.Skipf("%s is not available here", containment)
					}
					marker := fmt.Sprintf("assent-escape-%d-%s-%s", time.Now().UnixNano(), how, e.name)
					cmd := helperCmd(t, "escape", how, marker, e.then)
					ctx, out, cancel := e.setup(&cmd)
					defer cancel()
					start := time.Now()
					res := l.Run(ctx, cmd, out)
					if took := time.Since(start); took > slack {
						t.Errorf("Run took %v", took)
					}
					if !bytes.Contains(res.Stdout.Data, []byte("ready")) {
						t.Fatalf("the escapee never started: stdout %q, stderr %q, start %q", res.Stdout.Data, res.Stderr.Data, res.StartError)
					}
					if left := markedProcesses(marker); len(left) > 0 {
						for _, pid := range left {
							killAndReap(pid)
						}
						t.Errorf("processes of the call still there after it ended (%s): %v", res.Confinement.Containment, left)
					}
				})
			}
		}
	}
	if left := childrenOfTest(); len(left) > 0 {
		t.Errorf("children of this process left unreaped: %+v", left)
	}
}

func TestLocalRun_EscapeeOfOverlappingCallsEndsWithTheLast(t *testing.T) {
	// A process that left call A's group while call B was running cannot
	// be told apart from one of B's; the subreaper ends it when B ends.
	l := NewLocal(Options{Containment: ContainSubreaper, Grace: 200 * time.Millisecond})
	t.Cleanup(func() { l.Close() })
	if l.Probe().Containment != ContainSubreaper {
		t.Skip("no subreaper here")
	}
	ctxB, cancelB := context.WithCancel(context.Background())
	defer cancelB()
	markerA := fmt.Sprintf("assent-overlap-%d", time.Now().UnixNano())
	started := make(chan struct{})
	done := make(chan Result)
	go func() {
		done <- l.Run(ctxB, helperCmd(t, "ready"), func(c Chunk) {
			if bytes.Contains(c.Data, []byte("ready")) {
				close(started)
			}
		})
	}()
	<-started
	resA := l.Run(context.Background(), helperCmd(t, "escape", "setsid", markerA, "exit"), nil)
	if !bytes.Contains(resA.Stdout.Data, []byte("ready")) {
		t.Fatalf("call A: stdout %q, stderr %q", resA.Stdout.Data, resA.Stderr.Data)
	}
	if len(markedProcesses(markerA)) == 0 {
		t.Error("A's escapee was ended while B, which it might belong to, still ran")
	}
	cancelB()
	<-done
	if left := markedProcesses(markerA); len(left) > 0 {
		for _, pid := range left {
			killAndReap(pid)
		}
		t.Errorf("A's escapee outlived the last call that was running: %v", left)
	}
}

func TestLocalRun_ForeignChildren(t *testing.T) {
	// A child this process started itself, in its own group, cannot be
	// told from a call's process that joined the group: the subreaper ends
	// it with a call, unless the runner is told this process has children
	// of its own.
	for _, foreign := range []bool{true, false} {
		t.Run(fmt.Sprintf("foreign=%v", foreign), func(t *testing.T) {
			l := NewLocal(Options{Containment: ContainSubreaper, ForeignChildren: foreign})
			t.Cleanup(func() { l.Close() })
			if l.Probe().Containment != ContainSubreaper {
				t.Skip("no subreaper here")
			}
			own := osexec.Command("/bin/sleep", "60")
			if err := own.Start(); err != nil {
				t.Fatal(err)
			}
			waited := make(chan error, 1)
			go func() { waited <- own.Wait() }()
			t.Cleanup(func() { own.Process.Kill(); <-waited })
			if res := l.Run(context.Background(), Command{Path: "/bin/true", Argv: []string{"true"}}, nil); res.ExitCode != 0 {
				t.Fatalf("exit %d: %s", res.ExitCode, res.StartError)
			}
			select {
			case err := <-waited:
				if foreign {
					t.Errorf("the process's own child was ended with a call: %v", err)
				}
				waited <- err
			case <-time.After(200 * time.Millisecond):
				if !foreign {
					t.Error("a child in the process's own group outlived a call, as a call's process that joined the group would")
				}
			}
		})
	}
}

func TestLocalRun_TimeoutEndsALeaderThatLeftItsGroup(t *testing.T) {
	// A leader may move itself into another group of its session: the
	// runner's own, or one of its own child's. Signals to its old group
	// then miss it, so the runner signals the leader itself too: the
	// timeout still ends the call, and with it the child's group.
	l := NewLocal(Options{Grace: 200 * time.Millisecond, WaitDelay: 200 * time.Millisecond})
	t.Cleanup(func() { l.Close() })
	for _, how := range []string{"runner", "child"} {
		t.Run(how, func(t *testing.T) {
			marker := fmt.Sprintf("assent-leave-%d-%s", time.Now().UnixNano(), how)
			cmd := helperCmd(t, "leave-group", how, marker)
			cmd.Timeout = 500 * time.Millisecond
			done := make(chan Result, 1)
			go func() { done <- l.Run(context.Background(), cmd, nil) }()
			var res Result
			select {
			case res = <-done:
			case <-time.After(10 * time.Second):
				t.Fatal("the call outlived its timeout by 10 s")
			}
			if !bytes.Contains(res.Stdout.Data, []byte("ready")) || !res.TimedOut {
				t.Errorf("want the leader to leave its group and the timeout to end it: timed out %v, stdout %q, stderr %q",
					res.TimedOut, res.Stdout.Data, res.Stderr.Data)
			}
			if left := markedProcesses(marker); len(left) > 0 {
				for _, pid := range left {
					killAndReap(pid)
				}
				t.Errorf("processes of the call still there after it ended: %v", left)
			}
		})
	}
}

func TestLocalRun_ForkChainEndsWithTheCall(t *testing.T) {
	// A chain of forks whose every parent exits at once, in a group of its
	// own: each link comes back to the runner, and leaves it a zombie,
	// thousands of them before the live link by the time the leader exits.
	// The sweep reads the whole list, reaps the zombies at once and ends
	// the newest link as soon as it is found, so the chain ends with the
	// call. The chain would fork for 2 s, its last link then waiting; the
	// leader exits after 1.5 s.
	l := NewLocal(Options{Grace: 200 * time.Millisecond, WaitDelay: 200 * time.Millisecond})
	t.Cleanup(func() { l.Close() })
	if l.Probe().Containment != ContainSubreaper {
		t.Skip("no subreaper here")
	}
	start := time.Now()
	res := l.Run(context.Background(), helperCmd(t, "chain", "2000", "1500"), nil)
	m := regexp.MustCompile(`chain group (\d+)`).FindSubmatch(res.Stdout.Data)
	if m == nil {
		t.Fatalf("the chain never started: stdout %q, stderr %q", res.Stdout.Data, res.Stderr.Data)
	}
	group, _ := strconv.Atoi(string(m[1]))
	// A link lives a fraction of a millisecond, too short to be seen in
	// /proc; a chain that escaped shows in the zombies it leaves this
	// process after the call, and in its last link, once it waits.
	time.Sleep(time.Until(start.Add(2100 * time.Millisecond)))
	zombies := 0
	for _, e := range childrenOfTest() {
		if e.pgid == group && e.state == 'Z' {
			zombies++
		}
	}
	if left := liveInGroup(group); len(left) > 0 || zombies > 0 {
		_ = syscall.Kill(-group, syscall.SIGKILL)
		t.Errorf("the chain outlived its call: %d links exited after it, %v still run", zombies, left)
		time.Sleep(100 * time.Millisecond)
		for _, e := range childrenOfTest() {
			if e.pgid == group {
				var ws syscall.WaitStatus
				_, _ = syscall.Wait4(e.pid, &ws, 0, nil)
			}
		}
	}
}

func TestLocalRun_LeaderGetsOneSIGTERM(t *testing.T) {
	// The leader is signalled by itself only when it has left its group:
	// one in it that got SIGTERM twice, from its group and by its number,
	// would take the second for "give up the graceful end", as many
	// programs do.
	l := NewLocal(Options{Grace: 2 * time.Second})
	t.Cleanup(func() { l.Close() })
	for i := range 20 {
		ctx, cancel, out := endOnReady()
		res := l.Run(ctx, helperCmd(t, "count-term"), out)
		cancel()
		if n := bytes.Count(res.Stdout.Data, []byte("term")); n != 1 {
			t.Fatalf("run %d: the leader got SIGTERM %d times, want once (stdout %q, stderr %q)", i, n, res.Stdout.Data, res.Stderr.Data)
		}
	}
}

func TestLocalRun_UnreapableZombieDoesNotHoldTheSweep(t *testing.T) {
	// A zombie traced by a process out of the sweep's reach cannot be
	// reaped until its tracer lets go; a sweep that looked again and again
	// until WaitDelay ran out kept a core busy all that time. It stops once
	// a look neither reaps anything nor finds anything new. The tracer
	// here is this test's own child, in its group, spared by
	// ForeignChildren.
	const waitDelay = 2 * time.Second
	l := NewLocal(Options{Containment: ContainSubreaper, ForeignChildren: true, Grace: 200 * time.Millisecond, WaitDelay: waitDelay})
	t.Cleanup(func() { l.Close() })
	if l.Probe().Containment != ContainSubreaper {
		t.Skip("no subreaper here")
	}
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	tracer := osexec.Command(exe)
	tracer.Env = helperEnviron("seize-stdin")
	toTracer, _ := tracer.StdinPipe()
	fromTracer, _ := tracer.StdoutPipe()
	if err := tracer.Start(); err != nil {
		t.Fatal(err)
	}
	var victim int
	t.Cleanup(func() {
		toTracer.Close()
		tracer.Wait()
		if victim > 0 {
			var ws syscall.WaitStatus
			_, _ = syscall.Wait4(victim, &ws, 0, nil)
		}
	})
	seized := make(chan error, 1)
	var once sync.Once
	out := func(c Chunk) {
		m := regexp.MustCompile(`victim (\d+)`).FindSubmatch(c.Data)
		if m == nil {
			return
		}
		once.Do(func() {
			victim, _ = strconv.Atoi(string(m[1]))
			fmt.Fprintln(toTracer, victim)
			buf := make([]byte, 16)
			n, err := fromTracer.Read(buf)
			if err == nil && !bytes.Contains(buf[:n], []byte("seized")) {
				err = fmt.Errorf("tracer said %q", buf[:n])
			}
			seized <- err
		})
	}
	var before, after syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &before)
	res := l.Run(context.Background(), helperCmd(t, "traced-victim", "300", "700"), out)
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &after)
	select {
	case err := <-seized:
		if err != nil {
			t.Fatalf("the tracer did not take the victim: %v", err)
		}
	default:
		t.Fatalf("the victim never started: stdout %q, stderr %q", res.Stdout.Data, res.Stderr.Data)
	}
	cpu := time.Duration(after.Utime.Nano()+after.Stime.Nano()) - time.Duration(before.Utime.Nano()+before.Stime.Nano())
	if cpu > waitDelay/4 {
		t.Errorf("the call's end spent %v of CPU on a zombie it could not reap (WaitDelay %v)", cpu, waitDelay)
	}
}
