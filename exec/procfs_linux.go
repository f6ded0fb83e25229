//go:build linux

package exec

import (
	"bytes"
	"slices"
	"strconv"

	"golang.org/x/sys/unix"
)

// clockTick is the unit of process start times in /proc: USER_HZ, which
// Linux fixes at 100 on every architecture.
const clockTick = int64(1e9 / 100)

// procStat is what /proc/PID/stat says of one process.
type procStat struct {
	state      byte
	ppid, pgid int
	sid        int
	// start is when the process started, in nanoseconds since boot,
	// rounded down to a clock tick.
	start int64
}

// readProc reads a small /proc file into buf with as few system calls as
// it takes, returning what was read; the runner reads these on every call's
// end, so os.ReadFile's stat and growing buffer are worth avoiding.
func readProc(path string, buf []byte) ([]byte, error) {
	fd, err := unix.Open(path, unix.O_RDONLY|unix.O_CLOEXEC, 0)
	if err != nil {
		return nil, err
	}
	defer unix.Close(fd)
	n := 0
	for n < len(buf) {
		m, err := unix.Read(fd, buf[n:])
		if err == unix.EINTR {
			continue
		}
		if err != nil {
			return nil, err
		}
		if m == 0 {
			break
		}
		n += m
	}
	return buf[:n], nil
}

// readProcStat reads /proc/PID/stat. The command name sits in parentheses
// and may hold anything, so fields are counted from the last ')'.
func readProcStat(pid int) (procStat, error) {
	var buf [512]byte
	b, err := readProc("/proc/"+strconv.Itoa(pid)+"/stat", buf[:])
	if err != nil {
		return procStat{}, err
	}
	end := bytes.LastIndexByte(b, ')')
	if end < 0 || end+2 >= len(b) {
		return procStat{}, unix.EINVAL
	}
	f := bytes.Fields(b[end+1:])
	// state ppid pgrp session tty_nr tpgid flags minflt cminflt majflt
	// cmajflt utime stime cutime cstime priority nice num_threads
	// itrealvalue starttime
	if len(f) < 20 {
		return procStat{}, unix.EINVAL
	}
	num := func(i int) int64 {
		n, _ := strconv.ParseInt(string(f[i]), 10, 64)
		return n
	}
	return procStat{state: f[0][0], ppid: int(num(1)), pgid: int(num(2)), sid: int(num(3)), start: num(19) * clockTick}, nil
}

// childrenOf lists the children of thread tid of process pid, as
// /proc/PID/task/TID/children gives them, however many.
func childrenOf(pid, tid int) []int {
	fd, err := unix.Open("/proc/"+strconv.Itoa(pid)+"/task/"+strconv.Itoa(tid)+"/children", unix.O_RDONLY|unix.O_CLOEXEC, 0)
	if err != nil {
		return nil
	}
	defer unix.Close(fd)
	var buf [4096]byte
	b, err := readList(fd, buf[:0])
	if err != nil {
		return nil
	}
	return parsePids(b)
}

// readList reads a /proc list from its start to its end, appending to buf,
// which grows as needed: a list read only as far as one buffer holds hides
// whatever comes after, and a process that leaves more children than that
// in front of the rest (zombies a tracer keeps from being reaped, the dead
// links of a fork chain) would hide the rest from every look. It reads
// until a read returns nothing, not until one returns less than asked: a
// /proc list is made a page at a time, and a read can stop at the end of
// a page before the end of the list.
func readList(fd int, buf []byte) ([]byte, error) {
	for {
		if cap(buf)-len(buf) < 512 {
			buf = slices.Grow(buf, max(cap(buf), 4096))
		}
		n, err := unix.Pread(fd, buf[len(buf):cap(buf)], int64(len(buf)))
		switch {
		case err == unix.EINTR:
			continue
		case err != nil:
			return nil, err
		case n == 0:
			return buf, nil
		}
		buf = buf[:len(buf)+n]
	}
}

// parsePids reads a list of pids separated by spaces.
func parsePids(b []byte) []int {
	var out []int
	for _, f := range bytes.Fields(b) {
		if n, err := strconv.Atoi(string(f)); err == nil {
			out = append(out, n)
		}
	}
	return out
}

// statusMask reads a mask ("SigCgt", "SigIgn", "CapEff") of process pid
// from /proc/PID/status.
func statusMask(pid int, name string) (uint64, error) {
	var buf [4096]byte
	b, err := readProc("/proc/"+strconv.Itoa(pid)+"/status", buf[:])
	if err != nil {
		return 0, err
	}
	key := []byte("\n" + name + ":\t")
	i := bytes.Index(b, key)
	if i < 0 {
		return 0, unix.EINVAL
	}
	rest := b[i+len(key):]
	if j := bytes.IndexByte(rest, '\n'); j >= 0 {
		rest = rest[:j]
	}
	return strconv.ParseUint(string(rest), 16, 64)
}

// boottime returns the time since boot in nanoseconds, the clock process
// start times in /proc are measured with.
func boottime() int64 {
	var ts unix.Timespec
	if err := unix.ClockGettime(unix.CLOCK_BOOTTIME, &ts); err != nil {
		return 0
	}
	return ts.Nano()
}
