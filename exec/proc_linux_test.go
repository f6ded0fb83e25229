//go:build linux

package exec

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// procEntry is what /proc/PID/stat says of one process.
type procEntry struct {
	pid, ppid, pgid, sid, tty int
	state                     byte
}

// readStat reads and parses /proc/PID/stat.
func readStat(pid int) (procEntry, error) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return procEntry{}, err
	}
	return parseStat(string(b))
}

// parseStat parses a /proc stat line. The command name sits in parentheses
// and may contain anything, so fields are counted from the last ')'.
func parseStat(s string) (procEntry, error) {
	var e procEntry
	end := strings.LastIndexByte(s, ')')
	if end < 0 {
		return e, fmt.Errorf("stat line %q has no command name", s)
	}
	if _, err := fmt.Sscanf(s, "%d", &e.pid); err != nil {
		return e, fmt.Errorf("stat line %q: %v", s, err)
	}
	if _, err := fmt.Sscanf(s[end+1:], " %c %d %d %d %d", &e.state, &e.ppid, &e.pgid, &e.sid, &e.tty); err != nil {
		return e, fmt.Errorf("stat line %q: %v", s, err)
	}
	return e, nil
}

// groupMembers scans /proc for every process whose process group is pgid.
func groupMembers(pgid int) []procEntry {
	dirs, _ := filepath.Glob("/proc/[0-9]*")
	var out []procEntry
	for _, d := range dirs {
		pid, err := strconv.Atoi(filepath.Base(d))
		if err != nil {
			continue
		}
		if e, err := readStat(pid); err == nil && e.pgid == pgid {
			out = append(out, e)
		}
	}
	return out
}

// requireGroupGone fails unless, within a short while, no process of group
// pgid is running and none is an unreaped child of this test process. A
// zombie reparented elsewhere has ended; whether it is reaped is up to its
// new parent (init), not the runner. The leader must be reaped outright.
func requireGroupGone(t *testing.T, pgid int) {
	t.Helper()
	deadline := time.Now().Add(2 * time.Second)
	for {
		var left []procEntry
		for _, e := range groupMembers(pgid) {
			if e.state != 'Z' || e.ppid == os.Getpid() || e.pid == pgid {
				left = append(left, e)
			}
		}
		if len(left) == 0 {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("processes of group %d still there: %+v", pgid, left)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// requireGone fails unless process pid has neither a running process nor
// an unreaped zombie of this test process left, right after the run.
func requireGone(t *testing.T, pid int) {
	t.Helper()
	if e, err := readStat(pid); err == nil && (e.state != 'Z' || e.ppid == os.Getpid()) {
		t.Errorf("process %d is still there after the run: %+v", pid, e)
	}
}

// killAndReap kills process pid and, as this test process may be the
// subreaper it was re-parented to, reaps it too.
func killAndReap(pid int) {
	if syscall.Kill(pid, syscall.SIGKILL) != nil {
		return
	}
	if e, err := readStat(pid); err == nil && e.ppid == os.Getpid() {
		var ws syscall.WaitStatus
		_, _ = syscall.Wait4(pid, &ws, 0, nil)
	}
}
