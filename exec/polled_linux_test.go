//go:build linux

package exec

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	osexec "os/exec"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// A run that reads through the runtime's poller (when others are waiting)
// gives the Result a run alone gives, reading its own way: the same
// output, exit, signal and ending, for output large and small, on either
// stream, capped, over the cap with a kill, live, with stdin, timed out,
// and with a leftover holding the pipe.
func TestLocalRun_PolledReadsAsItsOwnPoll(t *testing.T) {
	const mib = "1048576"
	tests := []struct {
		name string
		cmd  Command
		live bool
		pids bool // stdout is the pids a leftover's helper prints
		pipe bool // stderr names the stdin pipe, which differs from run to run
	}{
		{name: "nothing", cmd: helperCmd(t, "exit", "0")},
		{name: "exit code", cmd: helperCmd(t, "exit", "7")},
		{name: "signal", cmd: helperCmd(t, "signal", "TERM")},
		{name: "three MiB on both streams", cmd: helperCmd(t, "flood", "both", "3145728", "lines")},
		{name: "stderr alone", cmd: helperCmd(t, "flood", "stderr", "70000", "lines")},
		{name: "one line of a MiB", cmd: helperCmd(t, "flood", "stdout", mib, "oneline")},
		{name: "over the cap, drained", cmd: with(helperCmd(t, "flood", "stdout", "3145728", "lines"), func(c *Command) { c.MaxOutput = 1 << 20 })},
		{name: "over the cap, killed", cmd: with(helperCmd(t, "flood", "stdout", "67108864", "lines"), func(c *Command) { c.MaxOutput, c.OnOverflow = 1<<20, Kill })},
		{name: "single-byte writes, live", cmd: helperCmd(t, "drip", "50"), live: true},
		{name: "stdin", cmd: with(helperCmd(t, "stdin"), func(c *Command) { c.Stdin = "fed\n" }), pipe: true},
		{name: "timed out", cmd: with(Command{Path: "/bin/sleep", Argv: []string{"sleep", "10"}}, func(c *Command) { c.Timeout = 200 * time.Millisecond })},
		{name: "a leftover in its own session holds stdout", cmd: helperCmd(t, "leave", "session"), pids: true},
	}
	const waitDelay = 300 * time.Millisecond
	own := NewLocal(Options{WaitDelay: waitDelay, Containment: ContainGroup})
	polled := NewLocal(Options{WaitDelay: waitDelay, Containment: ContainGroup})
	polled.simulate.busy = true
	t.Cleanup(func() { own.Close(); polled.Close() })
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			before := polled.os.polled.Load()
			want, _ := runCollecting(t, own, tt.cmd, tt.live)
			start := time.Now()
			got, chunks := runCollecting(t, polled, tt.cmd, tt.live)
			// A leftover holding a pipe gets WaitDelay, no more.
			if took, bound := time.Since(start), waitDelay+3*time.Second; tt.pids && took > bound {
				t.Errorf("through the poller the run took %v, more than %v", took, bound)
			}
			if polled.os.polled.Load() != before+1 {
				t.Fatal("the run did not read through the poller")
			}
			if own.os.polled.Load() != 0 {
				t.Fatal("a run alone read through the poller")
			}
			if d := resultDiff(got, want, tt.pids, tt.pipe); d != "" {
				t.Errorf("through the poller: %s", d)
			}
			if tt.live && chunks == 0 {
				t.Error("no live output through the poller")
			}
		})
	}
}

// runCollecting runs cmd with l, counting live chunks when live, and kills
// any leftover the helper reports.
func runCollecting(t *testing.T, l *Local, cmd Command, live bool) (Result, int) {
	t.Helper()
	var mu sync.Mutex
	chunks := 0
	var out func(Chunk)
	if live {
		out = func(Chunk) { mu.Lock(); chunks++; mu.Unlock() }
	}
	res := l.Run(context.Background(), cmd, out)
	if _, gpid, err := pidsOf(res.Stdout.Data); err == nil {
		killAndReap(gpid)
	}
	mu.Lock()
	defer mu.Unlock()
	return res, chunks
}

// resultDiff says how got differs from want in what a caller sees, leaving
// out durations and, with pids, stdout's text and, with pipe, stderr's.
func resultDiff(got, want Result, pids, pipe bool) string {
	switch {
	case got.ExitCode != want.ExitCode || got.Signal != want.Signal:
		return fmt.Sprintf("exit %d %q, want %d %q", got.ExitCode, got.Signal, want.ExitCode, want.Signal)
	case got.TimedOut != want.TimedOut || got.Cancelled != want.Cancelled || got.OverflowKilled != want.OverflowKilled:
		return fmt.Sprintf("timed out %v, cancelled %v, overflow killed %v; want %v, %v, %v",
			got.TimedOut, got.Cancelled, got.OverflowKilled, want.TimedOut, want.Cancelled, want.OverflowKilled)
	case got.Stdout.Truncated != want.Stdout.Truncated || got.Stderr.Truncated != want.Stderr.Truncated:
		return fmt.Sprintf("truncated %v/%v, want %v/%v", got.Stdout.Truncated, got.Stderr.Truncated, want.Stdout.Truncated, want.Stderr.Truncated)
	case !pipe && !bytes.Equal(got.Stderr.Data, want.Stderr.Data):
		return fmt.Sprintf("stderr: %d bytes, want %d, or they differ", len(got.Stderr.Data), len(want.Stderr.Data))
	case !pids && !bytes.Equal(got.Stdout.Data, want.Stdout.Data):
		return fmt.Sprintf("stdout: %d bytes, want %d, or they differ", len(got.Stdout.Data), len(want.Stdout.Data))
	case !pids && !want.OverflowKilled && got.Stdout.Bytes != want.Stdout.Bytes:
		return fmt.Sprintf("stdout: %d bytes written, want %d", got.Stdout.Bytes, want.Stdout.Bytes)
	}
	return ""
}

// with is cmd changed by change.
func with(cmd Command, change func(*Command)) Command {
	change(&cmd)
	return cmd
}

// When the wait for a pipe is cut (WaitDelay), what the group wrote before
// it was gone is kept: a reader on a loaded machine may not have run since.
// Cut at once here, the output used to lose its tail.
func TestLocalRun_PolledKeepsWhatIsThereWhenTheWaitIsCut(t *testing.T) {
	l := NewLocal(Options{WaitDelay: time.Nanosecond, Containment: ContainGroup})
	l.simulate.busy = true
	t.Cleanup(func() { l.Close() })
	const n = 200000
	for i := range 20 {
		res := l.Run(context.Background(), helperCmd(t, "flood", "both", fmt.Sprint(n), "lines"), nil)
		if len(res.Stdout.Data) != n || len(res.Stderr.Data) != n || res.Stdout.Bytes != n || res.Stderr.Bytes != n {
			t.Fatalf("run %d: read %d and %d bytes (kept %d and %d), want %d each",
				i, res.Stdout.Bytes, res.Stderr.Bytes, len(res.Stdout.Data), len(res.Stderr.Data), n)
		}
	}
}

// A leftover out of the group's reach that goes on writing cannot hold a
// polled run open: once WaitDelay has passed the wait is cut, what the
// pipe holds then is read, and the run ends within a small bound past
// WaitDelay, keeping the output it had (the leader's line first) up to the
// cap. (That readReady stops at what the pipe held is shown by
// TestReadReady_ReadsWhatThePipeHeldAndNoMore: here the reader outpaces the
// leftover, and a read until the pipe is empty would end soon too.)
//
// The leftover leaves the group while another call runs, so the subreaper
// puts it off when this call ends (see
// TestLocalRun_EscapeeOfOverlappingCallsEndsWithTheLast) and ends and
// reaps it with the other call: nothing of this test is left for another
// test's sweep to end, or unreaped once the pipe's close ends it.
func TestLocalRun_PolledLeftoverWritingOnIsCutAtWaitDelay(t *testing.T) {
	const (
		waitDelay = 300 * time.Millisecond
		slack     = 2 * time.Second // past WaitDelay, for a loaded machine
		limit     = 64 << 10
	)
	l := NewLocal(Options{Containment: ContainSubreaper, Grace: 200 * time.Millisecond, WaitDelay: waitDelay})
	l.simulate.busy = true
	t.Cleanup(func() { l.Close() })
	if l.Probe().Containment != ContainSubreaper {
		t.Skip("no subreaper here")
	}
	marker := fmt.Sprintf("assent-spewer-%d", time.Now().UnixNano())
	t.Cleanup(func() {
		for _, pid := range markedProcesses(marker) {
			killAndReap(pid)
		}
	})

	// The call the leftover might belong to, running until endA.
	ctxA, cancelA := context.WithCancel(context.Background())
	var once sync.Once
	started, doneA := make(chan struct{}), make(chan Result, 1)
	go func() {
		doneA <- l.Run(ctxA, helperCmd(t, "ready"), func(c Chunk) {
			if bytes.Contains(c.Data, []byte("ready")) {
				once.Do(func() { close(started) })
			}
		})
	}()
	endA := sync.OnceFunc(func() { cancelA(); <-doneA })
	t.Cleanup(endA)
	<-started

	before := l.os.polled.Load()
	cmd := helperCmd(t, "leave-spewing", marker)
	cmd.MaxOutput = limit
	doneB := make(chan Result, 1)
	start := time.Now()
	go func() { doneB <- l.Run(context.Background(), cmd, nil) }()
	var res Result
	select {
	case res = <-doneB:
	case <-time.After(waitDelay + slack):
		endA() // which ends the leftover, and so this run
		<-doneB
		t.Fatalf("the run was still open %v after it started, with WaitDelay %v: the leftover held it", waitDelay+slack, waitDelay)
	}
	took := time.Since(start)
	spewer, err := strconv.Atoi(strings.TrimSpace(string(res.Stderr.Data)))
	if err != nil {
		t.Fatalf("no spewer pid on stderr: %q, start error %q", res.Stderr.Data, res.StartError)
	}
	t.Cleanup(func() { killAndReap(spewer) })
	endA()

	if l.os.polled.Load() != before+1 {
		t.Error("the run did not read through the poller")
	}
	if took < waitDelay {
		t.Errorf("the run took %v, less than WaitDelay %v: the leftover did not hold stdout to the cut", took, waitDelay)
	}
	if res.ExitCode != 0 || res.Signal != "" || res.TimedOut || res.Cancelled || res.OverflowKilled {
		t.Errorf("exit %d %q, timed out %v, cancelled %v, overflow killed %v; want a plain exit 0",
			res.ExitCode, res.Signal, res.TimedOut, res.Cancelled, res.OverflowKilled)
	}
	want := append([]byte("leader\n"), floodBlock(false)[:limit-len("leader\n")]...)
	out := res.Stdout
	if !bytes.Equal(out.Data, want) {
		t.Errorf("stdout kept %d bytes, starting %.40q; want the leader's line and the leftover's first %d bytes",
			len(out.Data), out.Data, limit-len("leader\n"))
	}
	if !out.Truncated || out.Bytes <= limit {
		t.Errorf("stdout: %d bytes read, truncated %v; want more than the %d kept, truncated", out.Bytes, out.Truncated, limit)
	}
	if res.Stderr.Truncated {
		t.Error("stderr truncated")
	}
	// The other call's end ended the leftover and reaped it.
	if e, err := readStat(spewer); err == nil && (e.state != 'Z' || e.ppid == os.Getpid()) {
		t.Errorf("the leftover is still there after the call it might belong to ended: %+v", e)
	}
}

// At the cut, readReady reads what the pipe holds when it begins, and no
// more: a leftover writing on as it reads cannot keep it reading. Here the
// leftover's write comes from the reading goroutine itself, as the capture
// first passes its cap, so that it falls between two of readReady's reads
// every time.
func TestReadReady_ReadsWhatThePipeHeldAndNoMore(t *testing.T) {
	const (
		held  = 16 << 10 // in the pipe at the cut
		later = 8 << 10  // written while readReady reads
		limit = 4 << 10  // passed on readReady's second read
	)
	f, w := polledPipe(t)
	block := floodBlock(false)
	if n, err := unix.Write(w, block[:held]); n != held || err != nil {
		t.Fatalf("filling the pipe: %d, %v", n, err)
	}
	wrote := false
	cp := newCapture(Stdout, limit, nil, func() {
		if n, err := unix.Write(w, block[held:held+later]); n != later || err != nil {
			t.Errorf("writing during the read: %d, %v", n, err)
		}
		wrote = true
	})
	readReady(f, cp)
	if !wrote {
		t.Fatal("the capture never passed its cap: nothing was written during the read")
	}
	out := cp.output()
	if out.Bytes != held {
		t.Errorf("read %d bytes, want the %d the pipe held when the read began", out.Bytes, held)
	}
	if !bytes.Equal(out.Data, block[:limit]) || !out.Truncated {
		t.Errorf("kept %d bytes (truncated %v), want the first %d, truncated", len(out.Data), out.Truncated, limit)
	}
	if left, err := unix.IoctlGetInt(fdOf(f), unix.TIOCINQ); left != later || err != nil {
		t.Errorf("the pipe holds %d bytes after the read (%v), want the %d written during it", left, err, later)
	}
}

// polledPipe returns the read end of a new pipe as awaitExitPolled makes
// it, non-blocking and the runtime poller's, and the raw write end; both
// are closed when the test ends.
func polledPipe(t *testing.T) (*os.File, int) {
	t.Helper()
	var p [2]int
	if err := unix.Pipe2(p[:], unix.O_CLOEXEC|unix.O_NONBLOCK); err != nil {
		t.Fatal(err)
	}
	if err := unix.SetNonblock(p[1], false); err != nil {
		t.Fatal(err)
	}
	f := os.NewFile(uintptr(p[0]), "")
	t.Cleanup(func() { f.Close(); unix.Close(p[1]) })
	return f, p[1]
}

// pollerRefused makes fd non-blocking, as awaitExitPolled does, wrapped in a
// File the way the runtime leaves one whose poller registration failed:
// wrapped while blocking, the descriptor is never handed to the poller.
// It fails the test unless the File is indeed none of the poller's.
func pollerRefused(t *testing.T, fd int) *os.File {
	t.Helper()
	f := os.NewFile(uintptr(fd), "")
	if err := unix.SetNonblock(fd, true); err != nil {
		t.Fatal(err)
	}
	if err := f.SetReadDeadline(time.Now().Add(time.Hour)); !errors.Is(err, os.ErrNoDeadline) {
		t.Fatalf("setting a deadline: %v, want %v: the poller took the descriptor", err, os.ErrNoDeadline)
	}
	return f
}

// refusedPipe is a pipe whose read end, returned as a File, the poller
// refused (pollerRefused), and its write end.
func refusedPipe(t *testing.T) (*os.File, int) {
	t.Helper()
	var p [2]int
	if err := unix.Pipe2(p[:], unix.O_CLOEXEC); err != nil {
		t.Fatal(err)
	}
	return pollerRefused(t, p[0]), p[1]
}

// A pipe the poller refused is read by waiting in poll: a writer that
// pauses between writes loses nothing, and the reader closes the stream
// only at EOF.
func TestDrainPolled_ReadsAPipeThePollerRefusedToEOF(t *testing.T) {
	f, w := refusedPipe(t)
	defer f.Close()
	var want []byte
	for i := range 5 {
		want = fmt.Appendf(want, "write %d\n", i)
	}
	go func() {
		defer unix.Close(w)
		for i := range 5 {
			time.Sleep(20 * time.Millisecond)
			_, _ = fmt.Fprintf(fdWriter(w), "write %d\n", i)
		}
	}()
	cp := newCapture(Stdout, 1<<20, nil, nil)
	var cut atomic.Bool
	if !drainPolled(f, cp, &cut) {
		t.Error("the reader reported a cut, with none")
	}
	if got := cp.output().Data; !bytes.Equal(got, want) {
		t.Errorf("read %q, want %q", got, want)
	}
}

// The cut ends a reader's wait in poll on a pipe the poller refused, which
// a read deadline cannot, and what the pipe holds is then read at the cut.
func TestDrainPolled_CutEndsTheWaitOnAPipeThePollerRefused(t *testing.T) {
	f, w := refusedPipe(t)
	defer f.Close()
	defer unix.Close(w) // a silent leftover's end, open to the last
	cp := newCapture(Stdout, 1<<20, nil, nil)
	var cut atomic.Bool
	done := make(chan bool, 1)
	go func() { done <- drainPolled(f, cp, &cut) }()
	time.Sleep(5 * cutCheck) // let it wait in poll
	cut.Store(true)
	select {
	case eof := <-done:
		if eof {
			t.Error("the reader reported EOF, not the cut")
		}
	case <-time.After(2 * time.Second):
		unix.Close(w) // EOF ends the wait
		<-done
		t.Fatal("the cut did not end the reader's wait in poll")
	}
	if _, err := fdWriter(w).Write([]byte("at the cut\n")); err != nil {
		t.Fatal(err)
	}
	readReady(f, cp)
	if got := string(cp.output().Data); got != "at the cut\n" {
		t.Errorf("read %q at the cut, want what the pipe held", got)
	}
}

// A pidfd the poller refused is waited on in poll: awaitReadable returns
// once the process has exited, not before.
func TestAwaitReadable_WaitsOnAPidfdThePollerRefused(t *testing.T) {
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
	if err := c.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { _ = c.Process.Kill(); _ = c.Wait() }()
	if _, err := bufio.NewReader(out).ReadString('\n'); err != nil {
		t.Fatalf("helper did not announce itself: %v", err)
	}
	pidfd, err := unix.PidfdOpen(c.Process.Pid, 0)
	if err != nil {
		t.Skipf("no pidfd here: %v", err)
	}
	f := pollerRefused(t, pidfd)
	defer f.Close()
	done := make(chan struct{})
	go func() { awaitReadable(f); close(done) }()
	select {
	case <-done:
		t.Fatal("awaitReadable returned while the process ran")
	case <-time.After(100 * time.Millisecond):
	}
	_ = c.Process.Kill()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		t.Fatal("awaitReadable did not return once the process had exited")
	}
}

// fdWriter writes to a raw descriptor.
type fdWriter int

func (w fdWriter) Write(p []byte) (int, error) { return unix.Write(int(w), p) }

// A closed file has no descriptor: fdOf says -1, which every system call
// refuses, rather than 0, assent's own stdin; and a wait on it ends.
func TestFdOf_ClosedFileIsNoDescriptor(t *testing.T) {
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	w.Close()
	r.Close()
	if fd := fdOf(r); fd != -1 {
		t.Fatalf("fdOf of a closed file is %d, want -1", fd)
	}
	if pollReadable(r, nil) {
		t.Fatal("a closed file polled readable")
	}
}

// exitedNow, which keeps a polled run's timer from ending a leader that
// exited by its deadline, tells a running process from one that exited
// (not yet reaped), and takes a closed pidfd for an ended run.
func TestExitedNow_TellsARunningProcessFromAnExitedOne(t *testing.T) {
	cmd := osexec.Command("sleep", "60")
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Wait()
	fd, err := unix.PidfdOpen(cmd.Process.Pid, 0)
	if err != nil {
		t.Skipf("no pidfd here: %v", err)
	}
	f := os.NewFile(uintptr(fd), "pidfd")
	if exitedNow(f) {
		t.Fatal("a sleeping process counts as exited")
	}
	_ = cmd.Process.Kill()
	for deadline := time.Now().Add(10 * time.Second); !exitedNow(f); time.Sleep(time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("a killed process never counts as exited")
		}
	}
	f.Close()
	if !exitedNow(f) {
		t.Fatal("a closed pidfd counts as a running process")
	}
}
