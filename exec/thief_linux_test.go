//go:build linux

package exec

import (
	"context"
	"fmt"
	"os"
	osexec "os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// thief reopens its own stdout pipe for reading (an open of
// /proc/self/fd/1, which any process may make of a pipe it holds) and
// races the runner (pid args[0], else the parent) for the bytes it
// writes: it writes one byte and takes it back, until a thread of the
// runner sits in a blocking read of the pipe, which /proc shows. Then it
// exits, or with args[1] "hold" keeps stdout open a minute more.
func thief(args []string) int {
	runner := os.Getppid()
	if len(args) > 0 {
		runner, _ = strconv.Atoi(args[0])
	}
	if code := steal(runner); code != 0 || len(args) < 2 {
		return code
	}
	time.Sleep(time.Minute)
	return 0
}

// steal races runner for stdout's bytes, as thief says.
func steal(runner int) int {
	rfd, err := syscall.Open("/proc/self/fd/1", syscall.O_RDONLY|syscall.O_NONBLOCK|syscall.O_CLOEXEC, 0)
	if err != nil {
		fmt.Fprintln(os.Stderr, "reopen:", err)
		return 2
	}
	one, got := []byte{'x'}, make([]byte, 1)
	start := time.Now()
	for i := 0; time.Since(start) < 20*time.Second; i++ {
		_, _ = syscall.Write(1, one)
		for spin := 0; spin < i%30000; spin++ {
		}
		_, _ = syscall.Read(rfd, got)
		for range 3 {
			if inPipeRead(runner) {
				fmt.Fprintf(os.Stderr, "stuck after %v\n", time.Since(start).Round(time.Millisecond))
				return 0
			}
		}
	}
	fmt.Fprintln(os.Stderr, "gave up")
	return 3
}

// inPipeRead reports whether a thread of pid is blocked in a pipe read.
func inPipeRead(pid int) bool {
	tasks, _ := filepath.Glob("/proc/" + strconv.Itoa(pid) + "/task/*/wchan")
	for _, w := range tasks {
		if b, err := os.ReadFile(w); err == nil && strings.Contains(string(b), "pipe_read") {
			return true
		}
	}
	return false
}

// leaveThief starts a thief of the runner (this process's parent) in a
// session of its own on stdout, out of the group's reach, and writes its
// pid to pidFile.
func leaveThief(pidFile string) int {
	exe, _ := os.Executable()
	c := osexec.Command(exe, strconv.Itoa(os.Getppid()), "hold")
	c.Env = helperEnviron("thief")
	c.Stdout = os.Stdout
	c.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	if err := c.Start(); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 2
	}
	_ = os.WriteFile(pidFile, []byte(strconv.Itoa(c.Process.Pid)), 0o600)
	return 0
}

// bothWays runs test for a run alone (its own poll) and for one beside
// others (through the poller).
func bothWays(t *testing.T, test func(t *testing.T, busy bool)) {
	for _, busy := range []bool{false, true} {
		name := "own poll"
		if busy {
			name = "through the poller"
		}
		t.Run(name, func(t *testing.T) { test(t, busy) })
	}
}

// A command that reads back what it writes to its own stdout can take
// the bytes a wait said were ready before the runner reads them. Were the
// read ends blocking, the runner's read would then block: the run's
// goroutine would never look at the deadline again, and since it holds
// this process's copies of the write ends until it sees the exit, the
// read would not end even once the command had exited. The call must
// still end at its timeout (security.md, promise 12), alone and beside
// others.
func TestLocalRun_ThiefHoldsRunPastTimeout(t *testing.T) {
	bothWays(t, func(t *testing.T, busy bool) {
		l := NewLocal(Options{Containment: ContainGroup, Grace: 200 * time.Millisecond, WaitDelay: 300 * time.Millisecond})
		l.simulate.busy = busy
		t.Cleanup(func() { l.Close() })
		cmd := helperCmd(t, "thief")
		cmd.Timeout = 10 * time.Second // time for the thief to win the race (seconds under -race)
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		done := make(chan Result, 1)
		go func() { done <- l.Run(ctx, cmd, nil) }()
		bound := cmd.Timeout + 5*time.Second // + grace + WaitDelay, and ample slack
		select {
		case res := <-done:
			t.Logf("returned: exit %d, timed out %v, stderr %q", res.ExitCode, res.TimedOut, res.Stderr.Data)
		case <-time.After(bound):
			cancel() // ends the group and lets go of the write ends
			res := <-done
			t.Errorf("the run was still open %v after it started, with a timeout of %v; it ended only when cancelled (stderr %q, cancelled %v)",
				bound, cmd.Timeout, res.Stderr.Data, res.Cancelled)
		}
	})
}

// The same from a leftover out of the group's reach (its own session,
// under ContainGroup), after the leader has exited: the wait for the pipes
// and the read at the cut must not block, so WaitDelay bounds the call,
// where no cancel could free it (the limits are disarmed by then). Should
// it fail, the test kills the thief to let the run go.
func TestLocalRun_LeftoverThiefHoldsRunPastWaitDelay(t *testing.T) {
	bothWays(t, func(t *testing.T, busy bool) {
		const waitDelay = 8 * time.Second // time for the thief to win the race (seconds under -race)
		l := NewLocal(Options{Containment: ContainGroup, Grace: 200 * time.Millisecond, WaitDelay: waitDelay})
		l.simulate.busy = busy
		t.Cleanup(func() { l.Close() })
		pidFile := filepath.Join(t.TempDir(), "thief")
		killThief := func() {
			b, _ := os.ReadFile(pidFile)
			if pid, _ := strconv.Atoi(string(b)); pid > 0 {
				_ = syscall.Kill(pid, syscall.SIGKILL)
			}
		}
		t.Cleanup(killThief)
		done := make(chan Result, 1)
		go func() { done <- l.Run(context.Background(), helperCmd(t, "leave-thief", pidFile), nil) }()
		const bound = waitDelay + 5*time.Second
		select {
		case res := <-done:
			t.Logf("returned: exit %d, stderr %q", res.ExitCode, res.Stderr.Data)
		case <-time.After(bound):
			killThief()
			res := <-done
			t.Errorf("the run was still open %v after it started, with WaitDelay %v: a leftover held it in a read (it returned once the leftover was killed: exit %d)",
				bound, waitDelay, res.ExitCode)
		}
	})
}
