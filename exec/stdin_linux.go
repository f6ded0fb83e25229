//go:build linux

package exec

import (
	"os"
	"syscall"
	"time"
)

// stdinSetup is a child's standard input for one start: the Local's
// /dev/null, opened once for all runs (which also spares a sandboxed start
// an open the sandbox would have to allow), or a pipe the runner feeds.
type stdinSetup struct {
	child int      // the end the child gets as fd 0
	text  string   // what to write; empty for /dev/null
	w     *os.File // the end the runner writes, nil for /dev/null
}

// newStdin sets up the stdin for a command whose stdin text is text.
func (l *Local) newStdin(text string) (*stdinSetup, error) {
	if text == "" {
		fd, err := l.os.devnull()
		return &stdinSetup{child: fd}, err
	}
	var p [2]int
	var err error
	if p[0], p[1], err = newPipe(); err != nil {
		return nil, err
	}
	// The runner's end polls, so a write held up by a grandchild that keeps
	// stdin open unread can be cut off by a deadline.
	if err := syscall.SetNonblock(p[1], true); err != nil {
		syscall.Close(p[0])
		syscall.Close(p[1])
		return nil, os.NewSyscallError("fcntl", err)
	}
	return &stdinSetup{child: p[0], text: text, w: os.NewFile(uintptr(p[1]), "|stdin")}, nil
}

// childEnd is the descriptor the child gets as fd 0.
func (s *stdinSetup) childEnd() int { return s.child }

// started is called once the fork is over, ok when the child started: the
// runner's copy of the child's end goes, and the feed starts, or the pipe
// is closed if there is no child to read it.
func (s *stdinSetup) started(ok bool) *stdinFeed {
	if s.w == nil {
		return nil
	}
	syscall.Close(s.child)
	if !ok {
		s.w.Close()
		return nil
	}
	f := &stdinFeed{w: s.w, done: make(chan struct{})}
	go f.write(s.text)
	return f
}

// stdinFeed writes a command's stdin text from its own goroutine, so a
// child that reads it slowly, or not at all, never blocks the run.
type stdinFeed struct {
	w    *os.File
	done chan struct{}
}

// write writes text and closes the pipe, so the child sees EOF. A child
// that exits without reading makes the write fail with EPIPE, which ends it.
func (f *stdinFeed) write(text string) {
	defer close(f.done)
	_, _ = f.w.WriteString(text)
	f.w.Close()
}

// wait waits for the feed to end, at most d once the call's processes are
// gone: past it, only a process out of the runner's reach still holds
// stdin open without reading, and the write is cut off.
func (f *stdinFeed) wait(d time.Duration) {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-f.done:
	case <-t.C:
		_ = f.w.SetWriteDeadline(time.Now())
		<-f.done
	}
}
