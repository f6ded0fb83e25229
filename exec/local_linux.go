//go:build linux

package exec

import (
	"io/fs"
	"runtime"
	"sync"
	"sync/atomic"
	"syscall"

	"golang.org/x/sys/unix"
)

// osState is what a Local keeps on Linux for all its runs.
type osState struct {
	// devnullFD is /dev/null, opened once, the stdin of every child that
	// gets no stdin text; -1 if it could not be opened, and devnullErr why.
	devnullFD  int
	devnullErr error
	reaper     reaper
	programs   programs
	sandbox    sandboxes

	pidnsOnce sync.Once
	pidnsOK   bool

	rawForkOnce sync.Once
	rawForkOK   bool
	// stage is where children's descriptors are staged (see stage), nil if
	// its slots could not be made; staged says the kernel can (found out
	// with rawForkOK).
	stage  *stage
	staged bool

	// nofile is the open-file limit children get back (see childNofile),
	// worked out once, beside the first start rather than before it.
	nofile func() *unix.Rlimit
	// baseEnvp is the base environment as execve takes it, made once.
	baseEnvp []*byte
	// waiting counts the runs waiting for their child's exit, and polled
	// those that read through the runtime's poller (see ownPollUpTo).
	waiting atomic.Int32
	polled  atomic.Int64
}

// init opens what runs share. The descriptor is closed once the Local is
// unreachable, as no run can be using it then.
func (s *osState) init(l *Local) {
	s.devnullFD = -1
	fd, err := unix.Open("/dev/null", unix.O_RDONLY|unix.O_CLOEXEC, 0)
	if err == nil {
		fd, err = aboveStdio(fd)
	}
	if err != nil {
		s.devnullErr = &fs.PathError{Op: "open", Path: "/dev/null", Err: err}
	} else {
		s.devnullFD = fd
		runtime.AddCleanup(l, func(fd int) { unix.Close(fd) }, fd)
		if st, err := newStage(fd); err == nil {
			s.stage = st
			runtime.AddCleanup(l, func(st *stage) { st.close() }, st)
		}
	}
	s.nofile = sync.OnceValue(childNofile)
	go s.nofile()
	// nil when an option holds a NUL byte; each start then says so.
	s.baseEnvp, _ = syscall.SlicePtrFromStrings(l.baseEnv)
	s.sandbox.init(l)
}

// devnull returns the shared /dev/null.
func (s *osState) devnull() (int, error) {
	if s.devnullFD < 0 {
		return -1, s.devnullErr
	}
	return s.devnullFD, nil
}

// close releases the sandboxes and the reaper's descriptors.
func (s *osState) close() {
	s.sandbox.close()
	s.reaper.close()
	if s.stage != nil {
		s.stage.close()
	}
}

// pidns reports, once, whether children may get PID namespaces.
func (s *osState) pidns() bool {
	s.pidnsOnce.Do(func() { s.pidnsOK = pidNamespacePermitted() })
	return s.pidnsOK
}

// containment returns the containment runs get, from the option and what
// this process may do: the subreaper unless the option asks for something
// else this process may have.
func (l *Local) containment() Containment {
	switch l.opts.Containment {
	case ContainGroup:
		return ContainGroup
	case ContainPIDNamespace:
		if l.os.pidns() {
			return ContainPIDNamespace
		}
	}
	if l.os.reaper.enable() {
		return ContainSubreaper
	}
	return ContainGroup
}
