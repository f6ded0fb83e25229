//go:build linux

package exec

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime"
	"strconv"
	"syscall"
	"unsafe"

	"golang.org/x/sys/unix"
)

// atExecFn is the auxiliary vector's AT_EXECFN: the address of the name
// the kernel executed the program by.
const atExecFn = 31

// execFn returns the name this process was executed by, as the kernel
// recorded it: the path given to execve, or /dev/fd/N for a descriptor.
func execFn() (string, error) {
	auxv, err := os.ReadFile("/proc/self/auxv")
	if err != nil {
		return "", err
	}
	for i := 0; i+16 <= len(auxv); i += 16 {
		if binary.NativeEndian.Uint64(auxv[i:]) != atExecFn {
			continue
		}
		mem, err := os.Open("/proc/self/mem")
		if err != nil {
			return "", err
		}
		defer mem.Close()
		buf := make([]byte, 4096)
		n, _ := mem.ReadAt(buf, int64(binary.NativeEndian.Uint64(auxv[i+8:])))
		if end := bytes.IndexByte(buf[:n], 0); end >= 0 {
			return string(buf[:end]), nil
		}
		return "", errors.New("AT_EXECFN is not a string")
	}
	return "", errors.New("no AT_EXECFN")
}

// chainHead forks, and the parent exits at once while the child goes on,
// until lifeMs have passed, when the last link waits for ever: a chain
// each of whose links is an orphan for a moment, from one thread with
// every signal blocked (a signal ends a link only by killing it).
func chainHead(lifeMs string) int {
	ms, _ := strconv.Atoi(lifeMs)
	runtime.LockOSThread()
	all := ^uint64(0)
	syscall.RawSyscall6(unix.SYS_RT_SIGPROCMASK, unix.SIG_SETMASK, uintptr(unsafe.Pointer(&all)), 0, 8, 0, 0)
	var ts unix.Timespec
	_ = unix.ClockGettime(unix.CLOCK_MONOTONIC, &ts)
	chainLoop(ts.Nano() + int64(ms)*1e6)
	return 0
}

// chainLoop is chainHead's chain, in raw system calls only: a forked
// child of a Go program may run nothing that needs the runtime.
//
//go:nosplit
//go:norace
func chainLoop(deadline int64) {
	var ts unix.Timespec
	for {
		syscall.RawSyscall(unix.SYS_CLOCK_GETTIME, unix.CLOCK_MONOTONIC, uintptr(unsafe.Pointer(&ts)), 0)
		if ts.Sec*1e9+ts.Nsec >= deadline {
			for {
				syscall.RawSyscall6(unix.SYS_PPOLL, 0, 0, 0, 0, 0, 0)
			}
		}
		pid, _, e := syscall.RawSyscall6(unix.SYS_CLONE, uintptr(syscall.SIGCHLD), 0, 0, 0, 0, 0)
		if e == 0 && pid != 0 {
			for {
				syscall.RawSyscall(unix.SYS_EXIT_GROUP, 0, 0, 0)
			}
		}
	}
}

// seizeStdin traces, from one thread, the process whose pid it reads from
// stdin, without stopping it, and holds it traced until stdin ends.
func seizeStdin() int {
	runtime.LockOSThread()
	var pid int
	if _, err := fmt.Fscan(os.Stdin, &pid); err != nil {
		return reportErr(err)
	}
	if err := unix.PtraceSeize(pid); err != nil {
		return reportErr(err)
	}
	os.Stdout.WriteString("seized\n")
	_, _ = io.Copy(io.Discard, os.Stdin)
	return 0
}
