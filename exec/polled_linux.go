//go:build linux

package exec

import (
	"errors"
	"os"
	"sync/atomic"
	"time"

	"golang.org/x/sys/unix"
)

// A run alone waits for its child in ppoll on its own thread (see
// streams): nothing is faster for one call (through the poller, bench/load
// measured 1.26-1.29× bare exec's latency against 1.05-1.10×). When runs
// wait together, a thread blocked per run costs the process thread
// switches and wakeups that the runtime's poller does not. So a run that
// finds more than ownPollUpTo runs waiting (itself among them), and no
// more than pollerUpTo, reads through the poller. README.md (Performance)
// has the measurements.
const ownPollUpTo = 1

// pollerUpTo is how many waiting runs the poller serves; runs past it wait
// their own way again. With a thousand calls in flight over HTTP, the
// answers' goroutines wait on the same poller: every run through it
// measured 76-83% of bare exec's calls a second against 90-103% (median
// 92%) each its own way, up to 64 through it 80-94%, up to 16 92-94%.
// Up to 16 keeps the gain at 16 in flight and most of it at 64 (stdio 96%
// against 101% up to 64 and 90-93% the own way).
const pollerUpTo = 16

// polled is a run's output read through the runtime's poller: a goroutine
// per pipe, and the pidfd waited on where the runtime waits for sockets.
type polled struct {
	files [2]*os.File // the pipes; they own r.io.fds from here on
	pid   *os.File    // the pidfd; it owns r.io.pidfd
	cut   atomic.Bool // the readers are to stop (see finishPolled)
	// done says a reader reached EOF (or an error) and closed its pipe;
	// written before r.drained is closed, read after.
	done [2]bool
}

// awaitExitPolled is awaitExit through the poller. It reports false, having
// changed nothing, when the pipes or the pidfd cannot be made non-blocking;
// the caller then waits its own way.
func (r *run) awaitExitPolled() bool {
	fds := []int{r.io.fds[0], r.io.fds[1], r.io.pidfd}
	for i, fd := range fds {
		if err := unix.SetNonblock(fd, true); err != nil {
			for _, done := range fds[:i] {
				_ = unix.SetNonblock(done, false)
			}
			return false
		}
	}
	r.l.os.polled.Add(1)
	p := &polled{}
	for i, fd := range r.io.fds {
		p.files[i] = os.NewFile(uintptr(fd), "")
	}
	p.pid = os.NewFile(uintptr(r.io.pidfd), "")
	r.io.polled = p
	left := make(chan struct{}, 2)
	for i, cp := range []*capture{r.stdout, r.stderr} {
		go func() {
			if drainPolled(p.files[i], cp, &p.cut) {
				// As the own poll closes a stream it is done with: a writer
				// left then gets EPIPE, not a pipe that fills and blocks it.
				p.files[i].Close()
				p.done[i] = true
			}
			left <- struct{}{}
		}()
	}
	go func() {
		<-left
		<-left
		close(r.drained)
	}()
	var timer *time.Timer
	if !r.io.deadline.IsZero() {
		// As the own poll, a leader that has exited by its deadline did not
		// time out, even if the timer fires before the wait below returns.
		timer = time.AfterFunc(time.Until(r.io.deadline), func() {
			if !exitedNow(p.pid) {
				r.end(endTimeout)
			}
		})
	}
	stopSlow := func() {}
	if s := r.io.slow; s != nil {
		stopSlow = slowTimer(s, time.Until(r.io.slowAt))
	}
	awaitReadable(p.pid)
	stopSlow()
	if timer != nil {
		timer.Stop()
	}
	r.io.exited = true
	r.io.closeWriters()
	return true
}

// drainPolled reads f into cp until EOF or an error, when it reports true,
// or until finishPolled cuts the wait (cut, and a read deadline), when it
// reports false. A pipe the poller could not take (the runtime falls back
// to plain reads, which then fail with EAGAIN) is read by waiting in poll.
func drainPolled(f *os.File, cp *capture, cut *atomic.Bool) bool {
	var rb readBuffer
	for !cut.Load() {
		buf := rb.get()
		n, err := f.Read(buf)
		if n > 0 {
			cp.add(buf[:n])
		}
		switch {
		case errors.Is(err, os.ErrDeadlineExceeded):
			return false
		case errors.Is(err, unix.EAGAIN):
			if !pollReadable(f, cut) {
				return !cut.Load()
			}
		case err != nil:
			return true
		}
		if rb.filled(n) {
			growPipe(fdOf(f))
		}
	}
	return false
}

// readReady reads into cp what f holds now, and no more: what was written
// before the wait for the rest was cut is kept, as the own poll keeps what
// is ready when its wait ends, and a leftover that goes on writing cannot
// keep it reading.
func readReady(f *os.File, cp *capture) {
	fd := fdOf(f)
	left, err := unix.IoctlGetInt(fd, unix.TIOCINQ) // FIONREAD: what the pipe holds
	if err != nil {
		return
	}
	var rb readBuffer
	for left > 0 {
		buf := rb.get()
		n, err := unix.Read(fd, buf[:min(len(buf), left)])
		if n <= 0 || err != nil {
			return
		}
		cp.add(buf[:n])
		left -= n
	}
}

// awaitReadable waits until f can be read: for a pidfd, until its process
// has exited.
func awaitReadable(f *os.File) {
	rc, err := f.SyscallConn()
	if err == nil {
		err = rc.Read(func(fd uintptr) bool { return readableNow(int(fd)) })
	}
	if err != nil { // not the poller's to wait on
		pollReadable(f, nil)
	}
}

// cutCheck is how often a wait in poll looks whether it is to stop.
const cutCheck = 10 * time.Millisecond

// pollReadable waits in poll for f to be readable, and reports whether it
// is; false if poll fails other than by a signal, or once cut (if any) is
// set.
func pollReadable(f *os.File, cut *atomic.Bool) bool {
	fd := fdOf(f)
	if fd < 0 {
		return false // poll would wait on a negative descriptor for ever
	}
	timeout := -1
	if cut != nil {
		timeout = int(cutCheck / time.Millisecond)
	}
	for cut == nil || !cut.Load() {
		pfd := []unix.PollFd{{Fd: int32(fd), Events: unix.POLLIN}}
		n, err := unix.Poll(pfd, timeout)
		switch {
		case err == nil && n > 0:
			return true
		case err != nil && err != unix.EINTR:
			return false
		}
	}
	return false
}

// exitedNow reports whether the process of the pidfd f has exited, or f
// is closed, as it is once the run is over. It asks under the file's own
// reference, not through fdOf's bare number: the timer that calls it may
// run while finishPolled closes f, and the number could be reused.
func exitedNow(f *os.File) bool {
	rc, err := f.SyscallConn()
	if err != nil {
		return true
	}
	exited := true
	if rc.Control(func(fd uintptr) { exited = readableNow(int(fd)) }) != nil {
		return true
	}
	return exited
}

// readableNow reports whether fd can be read without waiting.
func readableNow(fd int) bool {
	pfd := []unix.PollFd{{Fd: int32(fd), Events: unix.POLLIN}}
	n, err := unix.Poll(pfd, 0)
	return err == nil && n > 0
}

// fdOf is f's descriptor, without os.File.Fd's switch to blocking mode;
// -1 once f is closed, which every system call refuses (0 would be
// assent's own stdin).
func fdOf(f *os.File) int {
	fd := -1
	if rc, err := f.SyscallConn(); err == nil {
		_ = rc.Control(func(d uintptr) { fd = int(d) })
	}
	return fd
}

// finishPolled is finishReading for a polled run: the readers get
// WaitDelay to reach EOF, then their reads are cut off, and every file is
// closed.
func (r *run) finishPolled() {
	p := r.io.polled
	t := time.NewTimer(r.l.opts.WaitDelay)
	defer t.Stop()
	select {
	case <-r.drained:
	case <-t.C:
		p.cut.Store(true)
		for _, f := range p.files {
			_ = f.SetReadDeadline(time.Now())
		}
		<-r.drained
		// A reader on a loaded machine may not have run since the group
		// was gone; only the wait is cut, not what is already there.
		for i, cp := range []*capture{r.stdout, r.stderr} {
			if !p.done[i] {
				readReady(p.files[i], cp)
			}
		}
	}
	for i, f := range p.files {
		f.Close()
		r.io.fds[i] = -1
	}
	p.pid.Close()
	r.io.pidfd = -1
}
