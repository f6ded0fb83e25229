//go:build linux

package exec

import (
	"os"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// A run alone waits for its child in ppoll on its own thread (see
// streams): nothing is faster for one call (through the poller, bench/load
// measured 1.17× bare exec's latency over stdio against 1.08×, and 1.24×
// over HTTP against 1.16×, the wait an epoll instance). When runs
// wait together, a thread blocked per run costs the process thread
// switches and wakeups that the runtime's poller does not. So a run that
// finds more than ownPollUpTo runs waiting (itself among them) waits
// through the poller. With the wait an epoll instance per run, every such
// run is better off there: against a cap of 16 (the cap when the poller
// wait took three goroutines a run), bench/load measured 94-97% of bare
// exec's calls a second over HTTP at 64 in flight against 91-94%, and
// 117-121% against 114-116% at a thousand. README.md (Performance) has the
// measurements.
const ownPollUpTo = 1

// polled is a run's wait through the runtime's poller: the run's pipes and
// pidfd go into an epoll instance of the run's own, and the poller waits on
// that one descriptor. The run's goroutine parks there, rather than its
// thread in ppoll, and wakes to read what is ready just as the own poll
// does (see pump): no reader goroutines, no timers of its own (the wait's
// deadline is the poller's), one registration with the poller however many
// descriptors the run waits on.
type polled struct {
	ep       *os.File // the epoll instance, the poller's
	rc       syscall.RawConn
	fd       int       // ep's descriptor, for epoll_ctl while ep is open
	deadline time.Time // ep's read deadline as last set
}

// Events the run's epoll instance reports, by what they are about: a
// stream's index in streams.fds, or the pidfd.
const pidfdEvent = 2

// readThroughPoller makes the run wait through the poller from here on, if
// an instance can be made and the poller takes it; else the run waits its
// own way.
func (r *run) readThroughPoller() {
	if p, err := newPolled(r.io.fds, r.io.pidfd); err == nil {
		r.io.polled = p
		r.l.os.polled.Add(1)
	}
}

// newPolled returns an epoll instance watching fds (the read ends of the
// output pipes) for input and pidfd once for the exit, registered with the
// runtime's poller.
func newPolled(fds [2]int, pidfd int) (*polled, error) {
	fd, err := unix.EpollCreate1(unix.EPOLL_CLOEXEC)
	if err != nil {
		return nil, err
	}
	add := func(watched int, events uint32, data int32) error {
		return unix.EpollCtl(fd, unix.EPOLL_CTL_ADD, watched, &unix.EpollEvent{Events: events, Fd: data})
	}
	for i, watched := range fds {
		if err == nil && watched >= 0 {
			err = add(watched, unix.EPOLLIN, int32(i))
		}
	}
	if err == nil {
		// Once: after the exit the pidfd stays readable, and the wait goes
		// on for the pipes alone.
		err = add(pidfd, unix.EPOLLIN|unix.EPOLLONESHOT, pidfdEvent)
	}
	if err == nil {
		err = unix.SetNonblock(fd, true) // so that os.NewFile hands it to the poller
	}
	if err != nil {
		unix.Close(fd)
		return nil, err
	}
	p := &polled{ep: os.NewFile(uintptr(fd), "epoll"), fd: fd}
	// A file the poller did not take has no deadlines: the wait would
	// block a thread and could not end at one.
	if err = p.ep.SetReadDeadline(time.Time{}); err == nil {
		p.rc, err = p.ep.SyscallConn()
	}
	if err != nil {
		p.ep.Close()
		return nil, err
	}
	return p, nil
}

// pump waits up to timeout milliseconds (-1: without limit) for a pipe or
// the pidfd to be ready, parked in the poller, and hands what is ready to
// r.ready.
func (p *polled) pump(r *run, timeout int) {
	var deadline time.Time
	if timeout >= 0 {
		deadline = time.Now().Add(time.Duration(timeout) * time.Millisecond)
	}
	if !deadline.Equal(p.deadline) {
		if p.ep.SetReadDeadline(deadline) != nil {
			return
		}
		p.deadline = deadline
	}
	// A deadline that passes ends the wait with nothing read; the caller
	// counts its time as after its own poll.
	_ = p.rc.Read(func(uintptr) bool {
		var events [3]unix.EpollEvent
		n, err := unix.EpollWait(p.fd, events[:], 0)
		if err != nil {
			return err != unix.EINTR // EINTR (not expected with no timeout): wait again; anything else: to the caller
		}
		for _, e := range events[:n] {
			r.ready(int(e.Fd), e.Events&unix.EPOLLIN != 0)
		}
		return n > 0
	})
}

// forget takes fd, about to be closed, out of the instance: a process
// that shares the pipe (a child between its fork and exec) would keep it
// there, reporting a stream that is no longer read.
func (p *polled) forget(fd int) {
	_ = unix.EpollCtl(p.fd, unix.EPOLL_CTL_DEL, fd, nil)
}

// close closes the instance, and with it the poller's registration.
func (p *polled) close() { p.ep.Close() }
