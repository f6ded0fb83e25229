package server

import (
	"io"
	"syscall"

	"golang.org/x/sys/unix"
)

// maxPipe is the most a pipe is grown to: the kernel's default ceiling for
// a process without CAP_SYS_RESOURCE (/proc/sys/fs/pipe-max-size).
const maxPipe = 1 << 20

// roomyOut returns out so that a message longer than out's pipe holds
// first grows the pipe to hold it, up to maxPipe; out is returned as it is
// when it is not a pipe. A tools/list answer of 200 tools is some 340 KB:
// through a 64 KiB pipe it went in six turns, each waiting for the client
// to read the last, on a machine where the client may be waiting for a
// core; in a pipe that holds it, in one write. A socket (Node's libuv
// gives the programs it starts socket pairs for their stdio) is left as
// it is: its default send buffer held 180 KB of the answer, and growing it
// to hold the whole made the start slower as Node measured it.
func roomyOut(out io.Writer) io.Writer {
	rc, ok := descriptorOf(out)
	if !ok {
		return out
	}
	size, err := fcntl(rc, unix.F_GETPIPE_SZ, 0)
	if err != nil {
		return out
	}
	return &roomyPipe{Writer: out, rc: rc, size: size}
}

// roomyPipe is a pipe's write end that grows the pipe for long messages.
// Write is called by one goroutine at a time (lineConn holds outMu).
type roomyPipe struct {
	io.Writer
	rc      syscall.RawConn
	size    int  // the pipe's capacity when last read or set
	refused bool // growing it failed, or gave nothing: it is not tried again
}

func (p *roomyPipe) Write(b []byte) (int, error) {
	if len(b) > p.size && p.size < maxPipe && !p.refused {
		p.grow(min(len(b), maxPipe))
	}
	return p.Writer.Write(b)
}

// grow makes the pipe hold n bytes. It asks for the smallest power of two
// that holds them: the kernel rounds a capacity up to one anyway, and
// charges it to the user's pipes (/proc/sys/fs/pipe-user-pages-soft)
// whether it is used or not. It reads the capacity first and never asks
// for less: the client may have grown the pipe meanwhile (only a change
// between the read and the grow goes unseen). Refused (the user's pipes
// hold too much already, or the limit was lowered), a long message goes in
// turns, as it would have.
func (p *roomyPipe) grow(n int) {
	if size, err := fcntl(p.rc, unix.F_GETPIPE_SZ, 0); err == nil {
		p.size = size
	}
	if p.size >= n {
		return
	}
	want := maxPipe
	for half := want / 2; half >= n; half /= 2 {
		want = half
	}
	size, err := fcntl(p.rc, unix.F_SETPIPE_SZ, want)
	if err != nil || size <= p.size {
		p.refused = true
		return
	}
	p.size = size
}

// fcntl runs fcntl(cmd, arg) on the descriptor and returns its result.
func fcntl(rc syscall.RawConn, cmd, arg int) (int, error) {
	var v int
	var ferr error
	if err := rc.Control(func(fd uintptr) { v, ferr = unix.FcntlInt(fd, cmd, arg) }); err != nil {
		return 0, err
	}
	return v, ferr
}
