//go:build unix

package exec

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"

	"golang.org/x/sys/unix"
)

func TestLocalRun_ExitStatus(t *testing.T) {
	dir := t.TempDir()
	noExec := filepath.Join(dir, "not-executable")
	if err := os.WriteFile(noExec, []byte("#!/bin/true\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	missing := filepath.Join(dir, "gone")
	tests := []struct {
		name      string
		cmd       Command
		wantCode  int
		wantSig   string
		wantStart string // substring of StartError; empty means none
	}{
		{name: "success", cmd: helperCmd(t, "exit", "0"), wantCode: 0},
		{name: "non-zero exit is a normal result", cmd: helperCmd(t, "exit", "3"), wantCode: 3},
		{name: "exit 255", cmd: helperCmd(t, "exit", "255"), wantCode: 255},
		{name: "killed by SIGTERM", cmd: helperCmd(t, "signal", "TERM"), wantCode: 143, wantSig: "SIGTERM"},
		{name: "killed by SIGKILL", cmd: helperCmd(t, "signal", "KILL"), wantCode: 137, wantSig: "SIGKILL"},
		{name: "program missing", cmd: Command{Path: missing, Argv: []string{"gone"}},
			wantCode: 127, wantStart: "program " + missing + " not found: it was removed or moved"},
		{name: "program not executable", cmd: Command{Path: noExec, Argv: []string{"x"}},
			wantCode: 126, wantStart: "may not be executed: permission denied"},
		{name: "working directory missing", cmd: Command{Path: "/bin/true", Argv: []string{"true"}, Dir: missing},
			wantCode: 127, wantStart: "working directory " + missing + ": no such file or directory"},
		{name: "working directory is a file", cmd: Command{Path: "/bin/true", Argv: []string{"true"}, Dir: noExec},
			wantCode: 127, wantStart: "is not a directory"},
		{name: "relative program path", cmd: Command{Path: "true", Argv: []string{"true"}},
			wantCode: 127, wantStart: `invalid command: program path "true" is not absolute`},
		{name: "NUL in argv", cmd: Command{Path: "/bin/true", Argv: []string{"true", "a\x00b"}},
			wantCode: 127, wantStart: "invalid command: argv[1] contains a NUL byte"},
	}
	l := NewLocal(Options{})
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := l.Run(context.Background(), tt.cmd, nil)
			if res.ExitCode != tt.wantCode || res.Signal != tt.wantSig {
				t.Errorf("exit %d, signal %q; want %d, %q (stderr %q)", res.ExitCode, res.Signal, tt.wantCode, tt.wantSig, res.Stderr.Data)
			}
			if tt.wantStart == "" && res.StartError != "" {
				t.Errorf("unexpected start error %q", res.StartError)
			}
			if !strings.Contains(res.StartError, tt.wantStart) {
				t.Errorf("start error %q, want it to contain %q", res.StartError, tt.wantStart)
			}
			if res.TimedOut || res.Cancelled || res.OverflowKilled {
				t.Errorf("TimedOut %v, Cancelled %v, OverflowKilled %v; want all false", res.TimedOut, res.Cancelled, res.OverflowKilled)
			}
		})
	}
}

func TestLocalRun_ArgvVerbatim(t *testing.T) {
	// Words a shell would split, expand, glob or treat as syntax.
	args := []string{"two words", "$HOME", "*", "a;b", "$(id)", "`id`", "'q'", `"d"`, "", "-n", "~", "x\ny", "{a,b}"}
	res := NewLocal(Options{}).Run(context.Background(), helperCmd(t, "args", args...), nil)
	if got := strings.Split(string(res.Stdout.Data), "\x00"); fmt.Sprint(got) != fmt.Sprint(args) || len(got) != len(args) {
		t.Errorf("child got argv %q, want %q", got, args)
	}
}

func TestLocalRun_Stdin(t *testing.T) {
	big := strings.Repeat("0123456789abcdef", 1<<16) // 1 MiB: more than a pipe holds
	tests := []struct {
		name    string
		stdin   string
		wantFd0 string // what /proc/self/fd/0 links to, prefix
	}{
		{name: "no stdin text reads /dev/null", stdin: "", wantFd0: "/dev/null"},
		{name: "stdin text is delivered", stdin: "line one\nline two\n", wantFd0: "pipe:"},
		{name: "large stdin is delivered whole", stdin: big, wantFd0: "pipe:"},
	}
	l := NewLocal(Options{})
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cmd := helperCmd(t, "stdin")
			cmd.Stdin, cmd.MaxOutput = tt.stdin, 2<<20
			res := l.Run(context.Background(), cmd, nil)
			if string(res.Stdout.Data) != tt.stdin {
				t.Errorf("child read %d bytes, want the %d given", len(res.Stdout.Data), len(tt.stdin))
			}
			if runtime.GOOS == "linux" && !strings.HasPrefix(string(res.Stderr.Data), tt.wantFd0) {
				t.Errorf("child's stdin is %q, want %s…", res.Stderr.Data, tt.wantFd0)
			}
		})
	}
}

func TestLocalRun_UnreadStdinDoesNotHang(t *testing.T) {
	cmd := Command{Path: "/bin/true", Argv: []string{"true"}, Stdin: strings.Repeat("x", 4<<20)}
	res := NewLocal(Options{}).Run(context.Background(), cmd, nil)
	if res.ExitCode != 0 || res.StartError != "" {
		t.Errorf("exit %d, start error %q; want 0 and none", res.ExitCode, res.StartError)
	}
}

func TestLocalRun_WorkingDirectory(t *testing.T) {
	dir, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	here, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name, dir, want string
	}{
		{name: "declared directory", dir: dir, want: dir},
		{name: "empty means the server's", dir: "", want: here},
	}
	l := NewLocal(Options{})
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cmd := helperCmd(t, "pwd")
			cmd.Dir = tt.dir
			if got := string(l.Run(context.Background(), cmd, nil).Stdout.Data); got != tt.want {
				t.Errorf("child ran in %q, want %q", got, tt.want)
			}
		})
	}
}

func TestLocalRun_CancelledBeforeStart(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	res := NewLocal(Options{}).Run(ctx, helperCmd(t, "exit", "0"), nil)
	if !res.Cancelled || res.ExitCode != 127 || !strings.Contains(res.StartError, "not started: context canceled") {
		t.Errorf("Cancelled %v, exit %d, start error %q; want true, 127, not started", res.Cancelled, res.ExitCode, res.StartError)
	}
}

func TestLocalRun_Concurrent(t *testing.T) {
	const n = 32
	l := NewLocal(Options{})
	var wg sync.WaitGroup
	errs := make(chan error, n)
	for i := range n {
		wg.Go(func() {
			word := fmt.Sprintf("run-%d", i)
			var live liveLog
			res := l.Run(context.Background(), helperCmd(t, "args", word), live.add)
			switch {
			case res.ExitCode != 0 || string(res.Stdout.Data) != word:
				errs <- fmt.Errorf("run %d: exit %d, stdout %q", i, res.ExitCode, res.Stdout.Data)
			case live.matches(Stdout, res.Stdout.Data) != nil:
				errs <- fmt.Errorf("run %d: live output: %v", i, live.matches(Stdout, res.Stdout.Data))
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}

func TestLocalRun_ChildGetsTheOpenFileLimitOSExecGives(t *testing.T) {
	// Go raises its own soft limit at startup and gives children the
	// original back; the runner's children must start as os/exec's do,
	// also in a Go program started by another (go run, an agent in Go),
	// whose parent has raised its own limit too. The chain: this test
	// lowers its soft limit (with the raw system call, which Go does not
	// note) and starts nofile-parent, a Go program that raises its limit;
	// it starts nofile-compare with os/exec, which gives it the lowered
	// limit back; that one compares its runner's child with os/exec's.
	var lim unix.Rlimit
	if err := unix.Getrlimit(unix.RLIMIT_NOFILE, &lim); err != nil {
		t.Fatal(err)
	}
	const low = 256
	if lim.Max < 2*low {
		t.Skipf("the hard open-file limit (%d) leaves no room to lower the soft one", lim.Max)
	}
	if err := unix.Setrlimit(unix.RLIMIT_NOFILE, &unix.Rlimit{Cur: low, Max: lim.Max}); err != nil {
		t.Fatal(err)
	}
	l := NewLocal(Options{})
	t.Cleanup(func() { l.Close() })
	res := l.Run(context.Background(), helperCmd(t, "nofile-parent"), nil)
	if err := unix.Setrlimit(unix.RLIMIT_NOFILE, &lim); err != nil {
		t.Fatal(err)
	}
	want := fmt.Sprintf("runner %d os/exec %d\n", low, low)
	if got := string(res.Stdout.Data); got != want {
		t.Errorf("the open-file limits the children start with: %q (stderr %q), want %q", got, res.Stderr.Data, want)
	}
}
