//go:build linux

package exec

import (
	"sync"
	"sync/atomic"
	"syscall"

	"golang.org/x/sys/unix"
)

// A child forked with a copy of assent's descriptor table pays for every
// descriptor in it: for the copy at clone, and at exec for closing each
// close-on-exec one. With a thousand calls in flight over HTTP, assent holds
// some four thousand; with 4 000 open, a start of /bin/true took 0.98-1.01
// ms where a staged one took 0.57-0.59 ms, and 0.58-0.62 ms with a few open
// either way (interleaved, medians). So the runner's own child shares the
// table at clone, and its first step with descriptors takes a table of its
// own holding the first few entries alone (close_range with
// CLOSE_RANGE_UNSHARE, Linux 5.9). What it needs is below stageFrom
// already, or is staged there beforehand, in slots the Local keeps. The
// child then moves its streams to 0, 1 and 2 and its program to 3, and
// closes the rest: a program starts with its three standard streams and
// nothing else, whatever assent holds, close-on-exec or not
// (BenchmarkRunManyFiles has the runner against os/exec with 4 000 open).

// stageSets is how many starts may stage their descriptors at once. With
// one set, starts above stageFrom queued for it: at 64 calls in flight,
// assent answered 85% and 91% of bare exec's calls a second (two runs)
// where the build before staging answered 95%.
const stageSets = 4

// stage is the slots children's descriptors are staged in.
type stage struct {
	sets [stageSets]slotSet
	// free holds the sets no start is using. A start waits for whichever
	// comes back first: an exec that hangs (a program on a stalled mount)
	// holds its set for as long, and no other start waits on it.
	free chan *slotSet
	null int // /dev/null, which the slots are reset to
	// staged counts the starts that asked for a set; the tests check it.
	staged atomic.Int64
	// mu makes close one at a time; closed says it has closed the slots.
	mu     sync.Mutex
	closed bool
}

// slotSet is the slots one start stages in.
type slotSet struct {
	// fds are for stdin, stdout, stderr and the program; each holds
	// /dev/null between starts.
	fds [4]int
	top int // one past the highest slot: the child keeps what is below
}

// newStage makes the slots as copies of null, the lowest descriptors free
// from 3 on: low, when the Local is made before the process opens many (a
// child copies the table up to its set's highest slot).
func newStage(null int) (*stage, error) {
	st := &stage{null: null, free: make(chan *slotSet, stageSets)}
	for i := range st.sets {
		set := &st.sets[i]
		for j := range set.fds {
			fd, err := unix.FcntlInt(uintptr(null), unix.F_DUPFD_CLOEXEC, 3)
			if err != nil {
				st.closeAll()
				return nil, err
			}
			set.fds[j], set.top = fd, max(set.top, fd+1)
		}
		st.free <- set
	}
	return st, nil
}

// closeAll closes the slots made.
func (st *stage) closeAll() {
	for i := range st.sets {
		for _, fd := range st.sets[i].fds {
			if fd > 0 {
				unix.Close(fd)
			}
		}
	}
}

// close closes the slots, once, if no start is using them. A start after
// it is not staged: its child gets the whole table, as where the kernel
// cannot stage. close waits for no start: a set held by an exec that hangs
// is left, and so is every slot, until the Local is unreachable, when
// close is called again.
func (st *stage) close() {
	st.mu.Lock()
	defer st.mu.Unlock()
	if st.closed {
		return
	}
	var got []*slotSet
	for range stageSets {
		select {
		case set := <-st.free:
			got = append(got, set)
		default:
			for _, set := range got {
				st.free <- set
			}
			return
		}
	}
	st.closed = true
	st.closeAll()
	close(st.free)
}

// slots returns every slot, for tests.
func (st *stage) slots() []int {
	var all []int
	for i := range st.sets {
		all = append(all, st.sets[i].fds[:]...)
	}
	return all
}

// stageFrom is the lowest descriptor that is staged. A child whose
// descriptors all lie below it keeps them where they are: its copy of the
// table up to them costs no more than staging them would (a word of the
// kernel's bitmap of open descriptors is 64 of them).
const stageFrom = 64

// put readies s's descriptors for a child that shares this process's table
// at clone, and returns the top of what the child is to keep of it. When
// they all lie below stageFrom, and always (tests) is false, it changes
// nothing and returns no set. Otherwise it takes a set of slots (a free
// one, else it waits for one), stages the descriptors in it and points s
// at them: its files at the first three slots, its program (if any) at the
// fourth; used says which slots hold something other than /dev/null. The
// caller releases the set after the start. A failure leaves no set taken.
// Once the slots are closed, it returns a top of 0: the child is not to
// share the table.
func (st *stage) put(s *setup, always bool) (top int, set *slotSet, used uint8, err syscall.Errno) {
	need := max(s.files[0], s.files[1], s.files[2], s.execFD)
	if need < stageFrom && !always {
		return need + 1, nil, 0, 0
	}
	if set = st.take(); set == nil {
		return 0, nil, 0, 0 // closed: not staged
	}
	for i, fd := range s.files {
		if fd == st.null {
			s.files[i] = set.fds[i]
			continue
		}
		if _, _, e := syscall.RawSyscall(unix.SYS_DUP3, uintptr(fd), uintptr(set.fds[i]), unix.O_CLOEXEC); e != 0 {
			st.release(set, used)
			return 0, nil, 0, e
		}
		s.files[i], used = set.fds[i], used|1<<i
	}
	if s.execFD >= 0 {
		if _, _, e := syscall.RawSyscall(unix.SYS_DUP3, uintptr(s.execFD), uintptr(set.fds[3]), unix.O_CLOEXEC); e != 0 {
			st.release(set, used)
			return 0, nil, 0, e
		}
		s.execFD, used = set.fds[3], used|1<<3
	}
	return set.top, set, used, 0
}

// take returns a free set, waiting for one if none is; nil once the slots
// are closed.
func (st *stage) take() *slotSet {
	st.staged.Add(1)
	return <-st.free
}

// release puts /dev/null back in the slots used, so that this process
// holds no end of a child's pipes past its start, and frees the set.
// dup3 from an open descriptor onto another cannot fail but for EINTR,
// which it is retried on.
func (st *stage) release(set *slotSet, used uint8) {
	for i, fd := range set.fds {
		if used&(1<<i) != 0 {
			for unix.Dup3(st.null, fd, unix.O_CLOEXEC) == unix.EINTR {
			}
		}
	}
	st.free <- set
}
