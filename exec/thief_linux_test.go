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

// reviewHelperEnv selects this file's helper modes (runHelper's switch is
// not this file's to extend).
const reviewHelperEnv = "ASSENT_REVIEW_HELPER"

func init() {
	switch os.Getenv(reviewHelperEnv) {
	case "thief": // race the runner (pid args[1], else the parent) for stdout's bytes
		target := os.Getppid()
		if len(os.Args) > 1 {
			target, _ = strconv.Atoi(os.Args[1])
		}
		code := thief(target)
		if code == 0 && len(os.Args) > 2 { // "hold": keep stdout open
			time.Sleep(time.Minute)
		}
		os.Exit(code)
	case "leave-thief": // leave a thief in a session of its own on stdout, write its pid to args[1], exit
		os.Exit(leaveThief(os.Args[1]))
	}
}

// thief reopens its own stdout pipe for reading (an open of
// /proc/self/fd/1, which any process may make of a pipe it holds) and
// races the runner for the bytes it writes: it writes one byte and takes
// it back, until a thread of the runner sits in a blocking read of the
// pipe, which /proc shows. Then it exits.
func thief(runner int) int {
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
	c.Env = []string{reviewHelperEnv + "=thief"}
	c.Stdout = os.Stdout
	c.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	if err := c.Start(); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 2
	}
	_ = os.WriteFile(pidFile, []byte(strconv.Itoa(c.Process.Pid)), 0o600)
	return 0
}

func reviewCmd(t *testing.T, mode string, args ...string) Command {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	return Command{Path: exe, Argv: append([]string{mode}, args...), Env: []string{reviewHelperEnv + "=" + mode, "GORACE=atexit_sleep_ms=0"}}
}

func bothWays(t *testing.T, test func(t *testing.T, busy bool)) {
	for _, busy := range []bool{false, true} {
		name := "own poll"
		if busy {
			name = "through the poller"
		}
		t.Run(name, func(t *testing.T) { test(t, busy) })
	}
}

// A command that reads back what it writes to its own stdout can make the
// runner's read of a pipe that poll (or epoll) said was ready block: the
// read ends are blocking, and readStream reads them after the wait. The
// run's goroutine then never looks at the deadline again, and since it also
// holds this process's copies of the write ends until it sees the exit,
// the read does not end even once the command has exited: the call
// outlives its timeout without bound (promise 12). Only a cancel frees it.
//
// Before 72c49ee a run beside others read non-blocking pipes and kept the
// timeout on a timer (this test passes there); it now reads the own
// poll's way, so every run is exposed.
func TestLocalRun_ThiefHoldsRunPastTimeout(t *testing.T) {
	bothWays(t, func(t *testing.T, busy bool) {
		l := NewLocal(Options{Containment: ContainGroup, Grace: 200 * time.Millisecond, WaitDelay: 300 * time.Millisecond})
		l.simulate.busy = busy
		t.Cleanup(func() { l.Close() })
		cmd := reviewCmd(t, "thief")
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
// under ContainGroup), after the leader has exited: finishReading's wait
// (readStream) or the cut's readHeld blocks in read, WaitDelay no longer
// bounds the call, and no cancel can free it (the limits are disarmed by
// then). Here the test kills the thief to let the run go.
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
		go func() { done <- l.Run(context.Background(), reviewCmd(t, "leave-thief", pidFile), nil) }()
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
