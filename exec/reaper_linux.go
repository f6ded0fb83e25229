//go:build linux

package exec

import (
	"errors"
	"maps"
	"math"
	"os"
	"strconv"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// reaper holds the processes of calls together under the subreaper
// containment. This process is made a child subreaper, so a process whose
// parent exits is re-parented here instead of to init: a `setsid` sleeper
// or a double-forked daemon of a call comes back to the runner, which can
// then end it with its call.
//
// What the kernel does not say is which call such an orphan came from. The
// runner tells by when it started: an orphan started before every other
// call still running began can only belong to a call that has ended (or is
// ending), so it is ended now; one started while other calls were running
// might be theirs, and is ended when the last of those ends. Sequential
// calls are thus held exactly; overlapping ones are held until the last of
// them ends, within its timeout. Processes in this process's own group are
// among them: a call's process may join that group, since the calls share
// this process's session unless NewSession is set, and nothing marks it
// apart from a child this process started itself, which is why only
// ForeignChildren spares the group.
type reaper struct {
	once    sync.Once
	enabled bool
	since   int64     // boottime when the flag was set
	mono    time.Time // the same moment on Go's monotonic clock
	pid     int       // this process
	pgid    int       // this process's group

	mu   sync.Mutex
	live map[*run]liveRun
	// begun counts the runs begun, so that a sweep can tell whether one
	// began since it looked.
	begun uint64
	// revisit holds the threads where a sweep put off a process that may
	// belong to a call still running: a child the leader started with
	// CLONE_PARENT is the forking thread's, whose children file only that
	// thread's runs read otherwise. Each is read, and dropped once it has
	// no child, under mu, so that no sweep drops one another has just put
	// a process off in.
	revisit map[int]bool

	// children caches, by thread, an open /proc/self/task/TID/children:
	// reading it again from offset 0 lists the children afresh, and a
	// pread costs a fraction of the path lookup an open does.
	childMu  sync.Mutex
	children map[int]int
	childBuf []byte // what a children file reads into, under childMu

	// looked counts the children sweeps read the status of; the tests
	// check it.
	looked atomic.Int64
}

// maxChildBuf bounds the buffer a children file is read into that is kept
// for the next read; one grown past it by a long list is let go.
const maxChildBuf = 64 << 10

// maxChildFiles bounds the cached children files; past it they are all
// closed and opened again as needed.
const maxChildFiles = 256

// liveRun is what the reaper knows of a run that has not finished.
type liveRun struct {
	began  int64 // boottime just before the fork
	pid    int   // the leader, once started and until it is reaped
	reaped int64 // boottime just after the leader was reaped; 0 before
}

// enable makes this process a child subreaper, once; it reports whether
// it is one.
func (rp *reaper) enable() bool {
	rp.once.Do(func() {
		rp.pid, rp.pgid = os.Getpid(), syscall.Getpgrp()
		rp.since, rp.mono = boottime(), time.Now()
		rp.enabled = unix.Prctl(unix.PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) == nil
	})
	return rp.enabled
}

// begin records that r is about to start. The time is taken from Go's
// monotonic clock (no system call) and put on the boot clock /proc uses;
// the two part only while the machine is suspended, after which began
// comes out early, which only makes the reaper wait longer before it ends
// an orphan, never end one it should not.
func (rp *reaper) begin(r *run) {
	began := rp.now()
	rp.mu.Lock()
	if rp.live == nil {
		rp.live = make(map[*run]liveRun)
	}
	rp.live[r] = liveRun{began: began}
	rp.begun++
	rp.mu.Unlock()
}

// now is the boot clock /proc uses, from Go's monotonic clock (see begin).
func (rp *reaper) now() int64 { return rp.since + time.Since(rp.mono).Nanoseconds() }

// started records r's leader.
func (rp *reaper) started(r *run, pid int) {
	rp.mu.Lock()
	lr := rp.live[r]
	lr.pid = pid
	rp.live[r] = lr
	rp.mu.Unlock()
}

// reaped records that r's leader has been reaped: from now its pid may be
// another process's, so it stops being a leader to skip, and a group or
// session of that number is r's only for a process that started by then.
func (rp *reaper) reaped(r *run) {
	now := rp.now()
	rp.mu.Lock()
	lr := rp.live[r]
	lr.pid, lr.reaped = 0, now
	rp.live[r] = lr
	rp.mu.Unlock()
}

// finish forgets r, once its processes have been swept and it is reaped.
func (rp *reaper) finish(r *run) {
	rp.mu.Lock()
	delete(rp.live, r)
	rp.mu.Unlock()
}

// sweep sends sig to every process that escaped r's group and can be told
// to be r's (or an ended call's). For SIGKILL it waits, within WaitDelay,
// until they are gone and reaped, and looks again for their own children,
// which come back here as each dies, for as long as each look gets
// somewhere: a chain of forks whose links exit at once comes back one link
// at a time, for as long as it outruns the looks, while a zombie that
// cannot be reaped yet (its tracer lives) is found again and again. The
// newest are looked at first and signalled as they are found, and the
// exited are reaped there and then: a chain leaves thousands of zombies
// before its live link, which went on forking while the sweep read and
// signalled them all first.
func (rp *reaper) sweep(r *run, sig syscall.Signal) {
	deadline := time.Now().Add(r.l.opts.WaitDelay)
	var before map[int]bool
	for {
		found, reaped := rp.escaped(r, sig)
		if len(found) == 0 && reaped == 0 {
			return
		}
		if sig != syscall.SIGKILL {
			return
		}
		now := make(map[int]bool, len(found))
		for _, pid := range found {
			now[pid] = true
			if reapBy(pid, deadline) {
				reaped++
			}
		}
		if reaped == 0 && maps.Equal(now, before) {
			return // nothing ended, nothing new
		}
		before = now
		if time.Now().After(deadline) {
			return
		}
	}
}

// hasChildren reports whether this process has a child of any thread,
// running or not yet reaped; when it has none, no process of any call can
// have come back to it. An error other than "no children" counts as
// having some.
func (rp *reaper) hasChildren() bool {
	var info unix.Siginfo
	err := unix.Waitid(unix.P_ALL, 0, &info, unix.WEXITED|unix.WSTOPPED|unix.WCONTINUED|unix.WNOHANG|unix.WNOWAIT|unix.WALL, nil)
	return err != unix.ECHILD
}

// escaped lists this process's children that are not leaders of live runs
// and belong to r or to calls that have ended, zombies included (a zombie
// whose threads are still exiting cannot be reaped yet; reapBy waits for
// it). Children come back to the main thread, or, when the leader started
// them with CLONE_PARENT, to the thread that forked it; the threads where
// an earlier sweep put a process off are read again, until they have no
// child left. Unless sig is 0, each is sent sig as soon as it is found,
// the newest first, or, when it has exited, reaped there and then, counted
// in reapedNow and not listed; with no other run live, an exited child is
// reaped before anything is read of it.
func (rp *reaper) escaped(r *run, sig syscall.Signal) (out []int, reapedNow int) {
	kids := rp.candidates(r)
	if len(kids) == 0 {
		return nil, 0
	}
	rp.mu.Lock()
	reaped := rp.live[r].reaped
	if len(kids) == 1 && kids[0].pid == r.p.pid && reaped == 0 {
		rp.mu.Unlock()
		return nil, 0 // the leader alone
	}
	// The record of the live runs: their leaders, when the earliest of the
	// others began, and how many had begun. A leader being forked, which
	// is listed before its run records it, is known by the number the
	// kernel announced (run.announced): it needs no look at /proc, which
	// would only put it off. One listed before even that is looked at.
	// Taken with mu held.
	var limit int64
	var begun uint64
	var leaders map[int]bool
	record := func() {
		limit, begun, leaders = math.MaxInt64, rp.begun, make(map[int]bool)
		for o, lr := range rp.live {
			switch {
			case lr.pid != 0:
				leaders[lr.pid] = true
			case lr.reaped == 0:
				if pid := atomic.LoadInt32(&o.announced); pid != 0 {
					leaders[int(pid)] = true
				}
			}
			if o != r {
				limit = min(limit, lr.began)
			}
		}
	}
	record()
	rp.mu.Unlock()
	// fresh takes the record again when a run has begun since it was
	// taken, and reports whether pid is still none of the live leaders: a
	// number listed may be a new leader's (another sweep reaped the child
	// listed, and the number was given again).
	fresh := func(pid int) bool {
		rp.mu.Lock()
		defer rp.mu.Unlock()
		if rp.begun != begun {
			record()
		}
		return !leaders[pid]
	}
	var putOff []int // threads of children put off
	// With no other run live, every child but the leader is r's or an
	// ended call's (or this process's own, which ForeignChildren says it
	// has), so one that has exited is reaped at once, with no look at what
	// it was: a call can leave thousands, and the look cost ten times the
	// reap. A run about to fork is live, so no leader not yet recorded is
	// among them; one begun since the list was read is in the record fresh
	// takes again, and while it is live nothing is reaped unlooked-at.
	for i := len(kids) - 1; i >= 0; i-- {
		k := kids[i]
		if reaped == 0 && k.pid == r.p.pid || !fresh(k.pid) {
			continue
		}
		reapNow := sig != 0 && limit == math.MaxInt64 && !r.l.opts.ForeignChildren
		if reapNow && reapExited(k.pid) {
			reapedNow++ // its number may be another's already
			continue
		}
		rp.looked.Add(1)
		st, err := readProcStat(k.pid)
		if err != nil || st.start+clockTick <= rp.since || st.pgid == rp.pgid && r.l.opts.ForeignChildren {
			continue // gone, or not started by the runner
		}
		// Looked at again after the read, which takes long enough for a
		// run to begin meanwhile.
		if !fresh(k.pid) {
			continue
		}
		// Once the leader is reaped its number may be given again: a group
		// or session of that number is the call's only for a process that
		// started no later than the reap's tick of /proc's clock. The
		// number was in use until the reap, and pids are given out in
		// turn, so no stranger has it within that tick.
		ours := (st.pgid == r.p.pid || st.sid == r.p.pid) && (reaped == 0 || st.start <= reaped)
		if !ours && st.start+clockTick > limit {
			if k.tid != rp.pid { // the main thread's children are read by every sweep
				putOff = append(putOff, k.tid)
			}
			continue // may belong to a call still running; its end will see it
		}
		if sig != 0 && st.state == 'Z' && reapExited(k.pid) {
			reapedNow++
			continue
		}
		// A process whose main thread has exited shows as a zombie too,
		// while its other threads run on: it is signalled as any other.
		if sig != 0 {
			signalTree(k.pid, sig)
		}
		out = append(out, k.pid)
	}
	if len(putOff) > 0 {
		rp.mu.Lock()
		if rp.revisit == nil {
			rp.revisit = make(map[int]bool)
		}
		for _, tid := range putOff {
			rp.revisit[tid] = true
		}
		rp.mu.Unlock()
	}
	return out, reapedNow
}

// candidate is a child of this process and the thread it is a child of.
type candidate struct{ pid, tid int }

// candidates lists the children escaped looks at: the main thread's, the
// forking thread's, and those of the threads to revisit, which are dropped
// here once they have none.
func (rp *reaper) candidates(r *run) []candidate {
	var kids []candidate
	add := func(tid int, pids []int) {
		for _, pid := range pids {
			kids = append(kids, candidate{pid, tid})
		}
	}
	rp.mu.Lock()
	for tid := range rp.revisit {
		pids, read := rp.childrenOf(tid)
		if read && len(pids) == 0 {
			delete(rp.revisit, tid)
		}
		add(tid, pids)
	}
	revisited := rp.revisit[r.p.tid]
	rp.mu.Unlock()
	pids, _ := rp.childrenOf(rp.pid)
	add(rp.pid, pids)
	if r.p.tid != rp.pid && !revisited {
		pids, _ := rp.childrenOf(r.p.tid)
		add(r.p.tid, pids)
	}
	return kids
}

// close closes the cached children files; sweeps open them again.
func (rp *reaper) close() {
	rp.childMu.Lock()
	defer rp.childMu.Unlock()
	for _, fd := range rp.children {
		unix.Close(fd)
	}
	rp.children = nil
}

// childrenOf lists the children of this process's thread tid, and reports
// whether it could read them: a thread that is gone has none, but a file
// that cannot be opened or read (out of descriptors) says nothing.
//
// A cached file of a thread that has since exited reads as empty, not as
// an error, and stays cached; were the thread's number given to a new
// thread of this process (the numbers would have to wrap), its children
// would go unseen until the cache is next emptied (maxChildFiles).
func (rp *reaper) childrenOf(tid int) (pids []int, read bool) {
	rp.childMu.Lock()
	defer rp.childMu.Unlock()
	for range 2 {
		fd, ok := rp.children[tid]
		if !ok {
			var err error
			fd, err = unix.Open("/proc/self/task/"+strconv.Itoa(tid)+"/children", unix.O_RDONLY|unix.O_CLOEXEC, 0)
			if err != nil {
				return nil, errors.Is(err, unix.ENOENT) || errors.Is(err, unix.ESRCH)
			}
			if rp.children == nil || len(rp.children) >= maxChildFiles {
				for _, old := range rp.children {
					unix.Close(old)
				}
				rp.children = make(map[int]int)
			}
			rp.children[tid] = fd
		}
		if rp.childBuf == nil {
			rp.childBuf = make([]byte, 0, 4096)
		}
		b, err := readList(fd, rp.childBuf[:0])
		if err == nil {
			pids = parsePids(b)
			if cap(b) <= maxChildBuf {
				rp.childBuf = b
			}
			return pids, true
		}
		// The read failed: open the file again, once.
		unix.Close(fd)
		delete(rp.children, tid)
	}
	return nil, false
}
