//go:build linux

package exec

import (
	"sync/atomic"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// noPidfdPoll is how often a run whose child came without a pidfd (a kernel
// before 5.3) looks whether it has exited.
const noPidfdPoll = 10 * time.Millisecond

// streams is how a run reads its child's output on Linux. Alone, the run's
// own goroutine polls both pipes and the child's pidfd in one system call
// and reads whichever is ready, so a run needs no reader goroutines, no
// poller registrations and no wakeups from other threads: os/exec pays for
// all three, and one call at a time they cost more than the fork itself.
// Beside other runs, it reads through the poller (see ownPollUpTo). The
// read ends are non-blocking (see newPipe); the child's ends block.
type streams struct {
	fds [2]int // read ends of stdout and stderr, -1 once at EOF
	// writers are this process's copies of the child's ends of the
	// pipes, open while holding is set: until the leader has exited or
	// an ending begins, whichever is first. Held, the leader's exit does
	// not hang the pipes up before its pidfd is readable (its files are
	// closed a moment before it is a zombie), so one wakeup tells of
	// both, where a poll woken by the hangup would sleep again for the
	// exit. An ending lets them go at once, because it waits for the
	// hangup as the sign that the call's processes are gone.
	writers [2]int
	holding atomic.Bool
	pidfd   int  // the leader's pidfd, -1 if the kernel gave none
	exited  bool // the pidfd has become readable: the leader exited
	buf     readBuffer
	// first is the buffer of the first reads, part of the run rather than
	// an allocation of its own: most commands print less than this.
	first [512]byte
	// deadline is when the timeout ends the run; the zero time once it
	// has fired.
	deadline time.Time
	// slow is the caller's Slow notice, given at slowAt unless the wait
	// has seen the leader exit by then (see armSlow).
	slow   *Slow
	slowAt time.Time
	// polled is set when the run waits through the runtime's poller
	// instead of in ppoll (see ownPollUpTo).
	polled *polled
}

// armTimeout keeps the timeout as the deadline of the run's own poll: no
// timer is armed, so a run that ends in time involves no other thread.
func (r *run) armTimeout(timeout time.Duration) (stop func()) {
	r.io.deadline = time.Now().Add(timeout)
	return func() {}
}

// armSlow keeps s's notice as the deadline of the run's wait, as the
// timeout is kept: a run that ends within its After costs it nothing.
func (r *run) armSlow(s *Slow) (stop func()) {
	if s.pending() {
		r.io.slow, r.io.slowAt = s, time.Now().Add(s.after)
	}
	return func() {}
}

// awaitExit reads output until the leader has exited, leaving it a zombie
// so that its pid, and so its process group id, cannot be reused before
// reap. When the deadline passes, it starts the end of the run and goes on
// reading while the end takes its course.
func (r *run) awaitExit() {
	if r.io.pidfd >= 0 {
		waiting := r.l.os.waiting.Add(1)
		defer r.l.os.waiting.Add(-1)
		if waiting > ownPollUpTo || r.l.simulate.busy {
			r.readThroughPoller()
		}
	}
	for !r.io.exited {
		timeout := -1
		if !r.io.deadline.IsZero() {
			left := time.Until(r.io.deadline)
			if left <= 0 {
				r.io.deadline = time.Time{}
				go r.end(endTimeout)
				continue
			}
			timeout = int((left + time.Millisecond - 1) / time.Millisecond)
		}
		if r.io.slow != nil {
			left := time.Until(r.io.slowAt)
			if left <= 0 {
				r.io.slow.Give()
				r.io.slow = nil
				continue
			}
			if ms := int((left + time.Millisecond - 1) / time.Millisecond); timeout < 0 || ms < timeout {
				timeout = ms
			}
		}
		if r.io.pidfd < 0 {
			if awaitExitNow(r.p.pid) {
				break
			}
			if every := int(noPidfdPoll / time.Millisecond); timeout < 0 || timeout > every {
				timeout = every
			}
		}
		r.pump(timeout)
	}
	r.io.closeWriters()
}

// closeWriters closes this process's copies of the child's pipe ends, once,
// so that the pipes reach EOF when no process of the call holds them. The
// run's goroutine and an ending may both call it.
func (s *streams) closeWriters() {
	if s.holding.CompareAndSwap(true, false) {
		closeAll(s.writers[:])
	}
}

// finishReading reads what is left once the call's processes are gone.
// Only a process out of the runner's reach can still hold a pipe open, and
// it gets WaitDelay; then what the pipes hold is read, and they are
// closed, so the call cannot be held open by it.
func (r *run) finishReading() {
	deadline := time.Now().Add(r.l.opts.WaitDelay)
	r.io.exited = true // no more waiting on the pidfd
	for r.io.fds[0] >= 0 || r.io.fds[1] >= 0 {
		left := time.Until(deadline)
		if left <= 0 {
			break
		}
		r.pump(int(left/time.Millisecond) + 1)
	}
	for i := range r.io.fds {
		r.readHeld(i)
		r.closeStream(i)
	}
	if r.io.polled != nil {
		r.io.polled.close()
	}
	if r.io.pidfd >= 0 {
		unix.Close(r.io.pidfd)
		r.io.pidfd = -1
	}
}

// pump waits up to timeout milliseconds (-1: without limit) for a pipe or
// the pidfd to be ready and reads each ready pipe once.
func (r *run) pump(timeout int) {
	if r.io.polled != nil {
		r.io.polled.pump(r, timeout)
		return
	}
	var pfds [3]unix.PollFd
	var which [3]int
	n := 0
	for i, fd := range r.io.fds {
		if fd >= 0 {
			pfds[n], which[n] = unix.PollFd{Fd: int32(fd), Events: unix.POLLIN}, i
			n++
		}
	}
	if !r.io.exited && r.io.pidfd >= 0 {
		pfds[n], which[n] = unix.PollFd{Fd: int32(r.io.pidfd), Events: unix.POLLIN}, pidfdEvent
		n++
	}
	if n == 0 {
		return
	}
	if _, err := unix.Poll(pfds[:n], timeout); err != nil {
		return // EINTR: the caller polls again
	}
	for j := range n {
		if pfds[j].Revents != 0 {
			r.ready(which[j], pfds[j].Revents&unix.POLLIN != 0)
		}
	}
}

// ready acts on what a wait found ready: the pidfd (the leader exited), or
// stream i, which has input or, without input, hung up.
func (r *run) ready(i int, input bool) {
	switch {
	case i == pidfdEvent:
		r.io.exited = true
	case r.io.fds[i] < 0:
		// Closed since the wait began.
	case !input:
		// Hung up with nothing left to read: EOF, without the read that
		// would say so.
		r.closeStream(i)
	default:
		r.readStream(i)
	}
}

// readStream reads once from stream i, which poll said is ready.
func (r *run) readStream(i int) {
	fd := r.io.fds[i]
	buf := r.readBuf()
	n, err := unix.Read(fd, buf)
	if err == unix.EINTR || err == unix.EAGAIN {
		return
	}
	if n <= 0 {
		r.closeStream(i)
		return
	}
	r.captureOf(i).add(buf[:n])
	if r.io.buf.filled(n) {
		growPipe(fd)
	}
}

// readHeld reads what stream i's pipe holds now, and no more, if it is
// still open: when the wait for the rest is cut, what was written before
// is kept (a reader on a loaded machine may not have come to it yet), and
// a leftover that goes on writing cannot keep it reading.
func (r *run) readHeld(i int) {
	fd := r.io.fds[i]
	if fd < 0 {
		return
	}
	left, err := unix.IoctlGetInt(fd, unix.TIOCINQ) // FIONREAD: what the pipe holds
	for err == nil && left > 0 {
		buf := r.readBuf()
		n, rerr := unix.Read(fd, buf[:min(len(buf), left)])
		if n <= 0 || rerr != nil {
			return
		}
		r.captureOf(i).add(buf[:n])
		r.io.buf.filled(n)
		left -= n
	}
}

// readBuf is the buffer for the run's next read: at first the one in the
// run itself.
func (r *run) readBuf() []byte {
	if r.io.buf.b == nil {
		r.io.buf.b = r.io.first[:]
	}
	return r.io.buf.get()
}

// captureOf is stream i's capture.
func (r *run) captureOf(i int) *capture {
	if i == 0 {
		return r.stdout
	}
	return r.stderr
}

// closeStream closes stream i's pipe, if still open, and closes r.drained
// once both are closed.
func (r *run) closeStream(i int) {
	if r.io.fds[i] < 0 {
		return
	}
	if r.io.polled != nil {
		r.io.polled.forget(r.io.fds[i])
	}
	unix.Close(r.io.fds[i])
	r.io.fds[i] = -1
	if r.io.fds[0] < 0 && r.io.fds[1] < 0 {
		close(r.drained)
	}
}

// awaitExitNow reports whether process pid has exited, leaving it unreaped.
func awaitExitNow(pid int) bool {
	var info unix.Siginfo
	err := unix.Waitid(unix.P_PID, pid, &info, syscall.WEXITED|syscall.WNOWAIT|syscall.WNOHANG, nil)
	return err != nil || info.Signo != 0
}
