//go:build linux

package exec

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"runtime"
	"strconv"
	"strings"
	"sync"
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

// At the cut, readHeld reads what the pipe holds when it begins, and no
// more: a leftover writing on as it reads cannot keep it reading. Here the
// leftover's write comes from the reading goroutine itself, as the capture
// first passes its cap, so that it falls between two of readHeld's reads
// every time.
func TestReadHeld_ReadsWhatThePipeHeldAndNoMore(t *testing.T) {
	const (
		held  = 16 << 10 // in the pipe at the cut
		later = 8 << 10  // written while readHeld reads
		limit = 4 << 10  // passed on readHeld's second read
	)
	var p [2]int
	if err := unix.Pipe2(p[:], unix.O_CLOEXEC); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { closeAll(p[:]) })
	block := floodBlock(false)
	if n, err := unix.Write(p[1], block[:held]); n != held || err != nil {
		t.Fatalf("filling the pipe: %d, %v", n, err)
	}
	wrote := false
	r := &run{drained: make(chan struct{})}
	r.io.fds = [2]int{p[0], -1}
	r.stdout = newCapture(Stdout, limit, nil, func() {
		if n, err := unix.Write(p[1], block[held:held+later]); n != later || err != nil {
			t.Errorf("writing during the read: %d, %v", n, err)
		}
		wrote = true
	})
	r.readHeld(0)
	if !wrote {
		t.Fatal("the capture never passed its cap: nothing was written during the read")
	}
	out := r.stdout.output()
	if out.Bytes != held {
		t.Errorf("read %d bytes, want the %d the pipe held when the read began", out.Bytes, held)
	}
	if !bytes.Equal(out.Data, block[:limit]) || !out.Truncated {
		t.Errorf("kept %d bytes (truncated %v), want the first %d, truncated", len(out.Data), out.Truncated, limit)
	}
	if left, err := unix.IoctlGetInt(p[0], unix.TIOCINQ); left != later || err != nil {
		t.Errorf("the pipe holds %d bytes after the read (%v), want the %d written during it", left, err, later)
	}
}

// A run waiting through the poller parks its own goroutine there and
// starts none: it reads what is ready when it wakes, as a run alone does.
func TestLocalRun_PolledWaitsWithoutGoroutinesOfItsOwn(t *testing.T) {
	l := NewLocal(Options{Containment: ContainGroup})
	l.simulate.busy = true
	t.Cleanup(func() { l.Close() })
	if res := l.Run(context.Background(), helperCmd(t, "exit", "0"), nil); res.ExitCode != 0 {
		t.Fatalf("first run: exit %d: %s", res.ExitCode, res.StartError)
	}
	before := l.os.polled.Load()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	base := runtime.NumGoroutine()
	done := make(chan Result, 1)
	go func() { done <- l.Run(ctx, Command{Path: "/bin/sleep", Argv: []string{"sleep", "60"}}, nil) }()
	for deadline := time.Now().Add(10 * time.Second); l.os.waiting.Load() == 0; time.Sleep(time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("the run never began to wait")
		}
	}
	time.Sleep(20 * time.Millisecond) // for anything it would start to be started
	during := runtime.NumGoroutine()
	cancel()
	if res := <-done; !res.Cancelled {
		t.Errorf("the run was not cancelled: %+v", res)
	}
	if l.os.polled.Load() != before+1 {
		t.Fatal("the run did not wait through the poller")
	}
	if during != base+1 {
		t.Errorf("%d goroutines while the run waited, want %d: the run's own and no more", during, base+1)
	}
}
