//go:build unix

package exec

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	osexec "os/exec"
	"os/signal"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
	"unsafe"

	"go.uber.org/goleak"
)

// helperEnv selects a helper mode when the test binary is started as a
// child. Tests run the binary itself rather than shell scripts, so they
// depend on no shell, exactly like the product.
const helperEnv = "ASSENT_EXEC_HELPER"

func TestMain(m *testing.M) {
	if mode := os.Getenv(helperEnv); mode != "" {
		os.Exit(runHelper(mode, os.Args[1:]))
	}
	goleak.VerifyTestMain(m)
}

// helperCmd returns a Command that runs this test binary in mode with args.
// The mode travels in the declared environment, the one way in past the
// runner's scrubbing. GORACE spares a -race helper the race runtime's
// one-second pause at exit.
func helperCmd(t testing.TB, mode string, args ...string) Command {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatalf("finding the test binary: %v", err)
	}
	return Command{Path: exe, Argv: append([]string{"helper"}, args...), Env: helperEnviron(mode)}
}

// helperEnviron is the environment a helper in mode is declared with.
func helperEnviron(mode string) []string {
	return []string{helperEnv + "=" + mode, "GORACE=atexit_sleep_ms=0"}
}

// runHelper is the child side. Its modes do one thing each and exit.
func runHelper(mode string, args []string) int {
	switch mode {
	case "nofile-parent": // start nofile-compare as a Go program starts its children
		exe, err := os.Executable()
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
		cmd := osexec.Command(exe)
		cmd.Env = append(os.Environ(), helperEnv+"=nofile-compare")
		cmd.Stdout, cmd.Stderr = os.Stdout, os.Stderr
		if err := cmd.Run(); err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
		return 0
	case "nofile-compare": // the open-file limit a runner's child and os/exec's child start with
		soft := func(run func(string, ...string) ([]byte, error)) string {
			out, err := run("/bin/sh", "-c", "ulimit -Sn")
			if err != nil {
				return err.Error()
			}
			return strings.TrimSpace(string(out))
		}
		l := NewLocal(Options{})
		defer l.Close()
		runner := soft(func(p string, a ...string) ([]byte, error) {
			res := l.Run(context.Background(), Command{Path: p, Argv: append([]string{p}, a...)}, nil)
			return res.Stdout.Data, nil
		})
		bare := soft(func(p string, a ...string) ([]byte, error) { return osexec.Command(p, a...).Output() })
		fmt.Printf("runner %s os/exec %s\n", runner, bare)
		return 0
	case "exit":
		n, _ := strconv.Atoi(args[0])
		return n
	case "signal": // die of the named signal, by its default action
		sig := map[string]syscall.Signal{"TERM": syscall.SIGTERM, "KILL": syscall.SIGKILL}[args[0]]
		_ = syscall.Kill(os.Getpid(), sig)
		time.Sleep(time.Minute)
		return 1
	case "args":
		os.Stdout.WriteString(strings.Join(args, "\x00"))
	case "env":
		os.Stdout.WriteString(strings.Join(os.Environ(), "\x00"))
	case "stat": // this process's /proc stat line
		b, _ := os.ReadFile("/proc/self/stat")
		os.Stdout.Write(b)
	case "pwd":
		wd, _ := os.Getwd()
		os.Stdout.WriteString(wd)
	case "stdin":
		fd0, _ := os.Readlink("/proc/self/fd/0")
		data, _ := io.ReadAll(os.Stdin)
		fmt.Fprintf(os.Stderr, "%s", fd0)
		os.Stdout.Write(data)
	case "flood":
		return flood(args)
	case "drip": // n single-byte writes, each a separate syscall
		n, _ := strconv.Atoi(args[0])
		for range n {
			os.Stdout.Write([]byte{'.'})
			time.Sleep(time.Millisecond)
		}
	case "ready": // announce, then wait to be ended
		os.Stdout.WriteString("ready\n")
		time.Sleep(time.Minute)
	case "termexit": // end cleanly, with code 3, on SIGTERM
		ch := make(chan os.Signal, 1)
		signal.Notify(ch, syscall.SIGTERM)
		os.Stdout.WriteString("ready\n")
		<-ch
		return 3
	case "stop": // announce the pid, then stop (SIGSTOP) until continued
		fmt.Printf("%d\n", os.Getpid())
		_ = syscall.Kill(os.Getpid(), syscall.SIGSTOP)
		time.Sleep(time.Minute)
	case "hold": // ignore SIGTERM and keep the inherited pipes open
		signal.Ignore(syscall.SIGTERM)
		time.Sleep(time.Minute)
	case "stubborn": // ignore SIGTERM, leave a grandchild holding stdout
		signal.Ignore(syscall.SIGTERM)
		gpid := startHold(false)
		fmt.Printf("%d %d\n", os.Getpid(), gpid)
		time.Sleep(time.Minute)
	case "leave": // exit, leaving a grandchild holding stdout in our group or its own session
		fmt.Printf("%d %d\n", os.Getpid(), startHold(args[0] == "session"))
	case "create": // create the file args[0]; say why not
		return reportErr(createFile(args[0]))
	case "mknod": // make a node of kind args[1] ("char", "block" or "fifo") at args[0]; say why not
		return reportErr(makeNode(args[0], args[1]))
	case "kill": // send signal 0 to pid args[0] ("self": this process); say why it could not
		pid := os.Getpid()
		if args[0] != "self" {
			pid, _ = strconv.Atoi(args[0])
		}
		return reportErr(syscall.Kill(pid, 0))
	case "read": // print the file args[0]; say why not
		b, err := os.ReadFile(args[0])
		os.Stdout.Write(b)
		return reportErr(err)
	case "fds": // the open descriptors below 1024 but the Go runtime's own (cgroup files it watches)
		var open []string
		for fd := range 1024 {
			if _, _, e := syscall.RawSyscall(syscall.SYS_FCNTL, uintptr(fd), syscall.F_GETFD, 0); e != 0 {
				continue
			}
			if to, _ := os.Readlink("/proc/self/fd/" + strconv.Itoa(fd)); !strings.HasPrefix(to, "/sys/fs/cgroup/") {
				open = append(open, strconv.Itoa(fd))
			}
		}
		os.Stdout.WriteString(strings.Join(open, " "))
	case "execfn": // the name the kernel executed this program by
		name, err := execFn()
		os.Stdout.WriteString(name)
		return reportErr(err)
	case "syscall": // make system call args[0] (a number) with no arguments; say how it failed
		nr, _ := strconv.ParseUint(args[0], 0, 64)
		var params [120]byte // room for struct io_uring_params
		_, _, errno := syscall.RawSyscall(uintptr(nr), 1, uintptr(unsafe.Pointer(&params)), 0)
		if errno != 0 {
			return reportErr(errno)
		}
	case "connect": // a plain TCP (or, with "mptcp", MPTCP) connect to args[0], "127.0.0.1:port"
		return reportErr(connectTo(args[0], len(args) > 1 && args[1] == "mptcp"))
	case "escape": // leave a process marked args[1] behind: "setsid", "double" or "join" (see startEscapee); then "wait" or "exit"
		startEscapee(args[0], args[1])
		os.Stdout.WriteString("ready\n")
		if args[2] == "wait" {
			time.Sleep(time.Minute)
		}
	case "middle": // start a marked holder in group args[1] (else a group of its own), and exit: the second fork of a double fork
		pgid := 0
		if len(args) > 1 {
			pgid, _ = strconv.Atoi(args[1])
		}
		startMarked(false, args[0], pgid)
	case "hold-mainexit": // keep a thread running, marked args[0], and end the main thread alone: the process then shows as a zombie
		return holdMainExit()
	case "count-term": // say "ready", then "term" for each SIGTERM, until 0.3 s after the first
		return countTerm()
	case "sleep-exit": // sleep args[0] ms, exit
		ms, _ := strconv.Atoi(args[0])
		time.Sleep(time.Duration(ms) * time.Millisecond)
		return 0
	case "seize-stdin": // PTRACE_SEIZE the pid read from stdin, say "seized", and hold it until stdin ends
		return seizeStdin()
	case "traced-victim": // leave a victim in a session of its own that exits after args[0] ms; say "victim PID"; exit after args[1] ms
		return leaveBehind("sleep-exit", args[0], true, "victim %d", args[1])
	case "leave-group": // leave our own process group for group args[0]: "runner" (the runner's own) or "child" (a marked holder's, args[1]); then wait
		return leaveGroup(args[0], args[1])
	case "chain": // start a fork chain (chainhead) in a group of its own for args[0] ms, then exit after args[1] ms
		return leaveBehind("chainhead", args[0], false, "chain group %d\nready", args[1])
	case "chainhead": // fork; the parent exits at once, the child goes on; for args[0] ms, then the last one waits
		return chainHead(args[0])
	case "leave-spewing": // print a line, leave a spewer marked args[0] in its own session on stdout, say its pid on stderr, and exit
		os.Stdout.WriteString("leader\n")
		fmt.Fprintf(os.Stderr, "%d\n", startSpewer(args[0]))
	case "spew": // write floodBlock's lines to stdout, over and over, until it cannot
		return spew()
	case "thief": // race the runner (pid args[0], else the parent) for stdout's bytes; with args[1] "hold", keep stdout open after
		return thief(args)
	case "leave-thief": // leave a holding thief of the runner in a session of its own on stdout, write its pid to args[0], exit
		return leaveThief(args[0])
	default:
		fmt.Fprintf(os.Stderr, "unknown helper mode %q\n", mode)
		return 2
	}
	return 0
}

// startHold starts a "hold" grandchild sharing this process's stdout and
// stderr and returns its pid, or exits on failure.
func startHold(ownSession bool) int {
	exe, err := os.Executable()
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	c := osexec.Command(exe)
	c.Env = helperEnviron("hold")
	c.Stdout, c.Stderr = os.Stdout, os.Stderr
	c.SysProcAttr = &syscall.SysProcAttr{Setsid: ownSession}
	if err := c.Start(); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	return c.Process.Pid
}

// startSpewer starts a "spew" process marked with marker on this
// process's stdout, in a session of its own, and returns its pid, or exits
// on failure.
func startSpewer(marker string) int {
	exe, err := os.Executable()
	if err == nil {
		c := osexec.Command(exe, marker)
		c.Env = helperEnviron("spew")
		c.Stdout = os.Stdout
		c.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
		if err = c.Start(); err == nil {
			return c.Process.Pid
		}
	}
	fmt.Fprintln(os.Stderr, err)
	os.Exit(2)
	return 0
}

// spew writes floodBlock's lines to stdout, over and over, until it
// cannot: until the pipe's read end is closed.
func spew() int {
	block := floodBlock(false)
	for off := 0; ; {
		n, err := rawWrite(os.Stdout, block[off:])
		switch {
		case err == syscall.EINTR:
		case err != nil:
			return 0
		default:
			off = (off + n) % len(block)
		}
	}
}

// flood writes args[1] bytes to args[0] ("stdout", "stderr" or "both", each
// getting the full count), in 1 MiB writes of floodPattern, or of 'x' alone
// when args[2] is "oneline" so the whole stream is a single line.
func flood(args []string) int {
	n, _ := strconv.ParseInt(args[1], 10, 64)
	block := floodBlock(args[2] == "oneline")
	var files []*os.File
	switch args[0] {
	case "stdout":
		files = []*os.File{os.Stdout}
	case "stderr":
		files = []*os.File{os.Stderr}
	default:
		files = []*os.File{os.Stdout, os.Stderr}
	}
	var wg sync.WaitGroup
	for _, f := range files {
		wg.Go(func() {
			for left := n; left > 0; {
				k := min(left, int64(len(block)))
				w, err := rawWrite(f, block[:k])
				if err != nil {
					return
				}
				left -= int64(w)
			}
		})
	}
	wg.Wait()
	return 0
}

// rawWrite writes p to f with a bare write system call. os.File.Write in a
// binary built with -race checks every byte it writes against the race
// detector's shadow memory, which makes a gigabyte take seconds; the flood
// must be fast, and only the runner under test needs the detector.
func rawWrite(f *os.File, p []byte) (int, error) {
	n, _, errno := syscall.Syscall(syscall.SYS_WRITE, f.Fd(), uintptr(unsafe.Pointer(&p[0])), uintptr(len(p)))
	if errno != 0 {
		return 0, errno
	}
	return int(n), nil
}

// floodBlock is the 1 MiB unit a flood repeats: 63 letters and a newline,
// over and over, or 'x' with no newline at all.
func floodBlock(oneLine bool) []byte {
	if oneLine {
		return bytes.Repeat([]byte{'x'}, 1<<20)
	}
	return bytes.Repeat([]byte("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_\n"), 1<<20/64)
}
