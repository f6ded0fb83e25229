//go:build unix

package exec

import (
	"bytes"
	"fmt"
	"os"
	osexec "os/exec"
	"os/signal"
	"runtime"
	"strconv"
	"syscall"
	"time"
)

// reportErr prints err to stderr and returns 1, or returns 0 for nil.
func reportErr(err error) int {
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	return 0
}

// createFile creates path, which must not exist.
func createFile(path string) error {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		return err
	}
	return f.Close()
}

// makeNode makes a node of kind ("char", "block" or "fifo") at path; a
// device gets the numbers 1:3, which /dev/null has as a character device.
func makeNode(path, kind string) error {
	mode := map[string]uint32{"char": syscall.S_IFCHR, "block": syscall.S_IFBLK, "fifo": syscall.S_IFIFO}[kind]
	return syscall.Mknod(path, mode|0o600, 1<<8|3)
}

// startEscapee leaves a holder marked with marker behind, out of this
// process's group: in a session of its own ("setsid"; "mainexit", one
// whose main thread has exited while another runs on), or orphaned by a
// parent that exits at once (a double fork, as a daemon makes one) in a
// group of its own ("double") or in the group of the process that started
// this one, the runner's own ("join"), and waits until it runs.
func startEscapee(how, marker string) {
	switch how {
	case "setsid":
		startMarked(true, marker, 0)
		return
	case "mainexit":
		startMainExit(marker)
		return
	}
	exe, _ := os.Executable()
	c := osexec.Command(exe, marker)
	c.Env = helperEnviron("middle")
	if how == "join" {
		pgid, err := syscall.Getpgid(os.Getppid())
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(2)
		}
		c.Args = append(c.Args, fmt.Sprint(pgid))
	}
	if err := c.Run(); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
}

// startMarked starts a "hold" process with marker as its argument, which
// a test finds it by in /proc, with no pipes of this process's, in a
// session of its own or else in process group pgid (0: a group of its own).
func startMarked(ownSession bool, marker string, pgid int) {
	exe, err := os.Executable()
	if err == nil {
		c := osexec.Command(exe, marker)
		c.Env = helperEnviron("hold")
		c.SysProcAttr = &syscall.SysProcAttr{Setsid: ownSession, Setpgid: !ownSession, Pgid: pgid}
		err = c.Start()
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
}

// leaveGroup moves this process, a call's leader, out of the process
// group the runner made for it, into the runner's own group (how is
// "runner": the calls share its session) or into the group of a marked
// holder it starts ("child"), says where it went, and waits to be ended,
// ignoring SIGTERM.
func leaveGroup(how, marker string) int {
	pgid, err := syscall.Getpgid(os.Getppid())
	if how == "child" {
		exe, _ := os.Executable()
		c := osexec.Command(exe, marker)
		c.Env = helperEnviron("hold")
		c.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
		err = c.Start()
		if err == nil {
			pgid = c.Process.Pid
		}
	}
	if err == nil {
		err = syscall.Setpgid(0, pgid)
	}
	if err != nil {
		return reportErr(err)
	}
	signal.Ignore(syscall.SIGTERM)
	fmt.Printf("left for group %d\nready\n", syscall.Getpgrp())
	time.Sleep(time.Minute)
	return 0
}

// leaveBehind starts the helper mode with arg, in a group of its own or
// (ownSession) a session of its own, prints say with its pid, and exits
// after waitMs: a call's leader that leaves a process to come back to the
// runner when it exits.
func leaveBehind(mode, arg string, ownSession bool, say, waitMs string) int {
	exe, _ := os.Executable()
	c := osexec.Command(exe, arg)
	c.Env = helperEnviron(mode)
	c.SysProcAttr = &syscall.SysProcAttr{Setsid: ownSession, Setpgid: !ownSession}
	if err := c.Start(); err != nil {
		return reportErr(err)
	}
	fmt.Printf(say+"\n", c.Process.Pid)
	ms, _ := strconv.Atoi(waitMs)
	time.Sleep(time.Duration(ms) * time.Millisecond)
	return 0
}

// startMainExit starts a hold-mainexit holder in a session of its own and
// waits until it says its main thread has exited.
func startMainExit(marker string) {
	exe, _ := os.Executable()
	c := osexec.Command(exe, marker)
	c.Env = helperEnviron("hold-mainexit")
	c.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	out, err := c.StdoutPipe()
	if err == nil {
		err = c.Start()
	}
	if err == nil {
		_, err = out.Read(make([]byte, 1))
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "the holder's main thread did not exit:", err)
		os.Exit(2)
	}
}

// The main thread locked at init runs main, and so runHelper: that is
// how holdMainExit can end the main thread itself.
func init() {
	if os.Getenv(helperEnv) == "hold-mainexit" {
		runtime.LockOSThread()
	}
}

// holdMainExit keeps a thread of its own sleeping and ends the main thread
// alone (see init), ignoring SIGTERM.
func holdMainExit() int {
	signal.Ignore(syscall.SIGTERM)
	go func() {
		runtime.LockOSThread()
		for range 500 {
			if b, err := os.ReadFile("/proc/self/stat"); err == nil && bytes.Contains(b, []byte(") Z ")) {
				os.Stdout.WriteString("x")
				os.Stdout.Close()
				break
			}
			time.Sleep(10 * time.Millisecond)
		}
		time.Sleep(time.Minute)
	}()
	syscall.RawSyscall(syscall.SYS_EXIT, 0, 0, 0)
	return 0
}

// countTerm says "ready" and then "term" for each SIGTERM it gets, and
// exits 0.3 s after the first.
func countTerm() int {
	got := make(chan os.Signal, 4)
	signal.Notify(got, syscall.SIGTERM)
	os.Stdout.WriteString("ready\n")
	<-got
	os.Stdout.WriteString("term\n")
	end := time.After(300 * time.Millisecond)
	for {
		select {
		case <-got:
			os.Stdout.WriteString("term\n")
		case <-end:
			return 0
		}
	}
}
