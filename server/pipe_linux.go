package server

import (
	"io"
	"syscall"

	"golang.org/x/sys/unix"
)

// maxPipe is the most a pipe is grown to: the kernel's default ceiling for
// a process without CAP_SYS_RESOURCE (/proc/sys/fs/pipe-max-size).
const maxPipe = 1 << 20

// roomyPipe returns out so that a message longer than out's pipe holds
// first grows the pipe to hold it, up to maxPipe; out is returned as it is
// when it is not a pipe. A tools/list answer of 200 tools is some 330 KB:
// through a 64 KiB pipe it goes in six turns, each waiting for the client
// to read the last, on a machine where the client may be waiting for a
// core; in a pipe that holds it, in one write.
func roomyPipe(out io.Writer) io.Writer {
	rc, ok := descriptorOf(out)
	if !ok {
		return out
	}
	size, err := pipeSize(rc, unix.F_GETPIPE_SZ, 0)
	if err != nil {
		return out
	}
	return &pipeOut{Writer: out, rc: rc, size: size}
}

// pipeOut is a pipe's write end that grows the pipe for long messages.
// Write is called by one goroutine at a time (lineConn holds outMu).
type pipeOut struct {
	io.Writer
	rc      syscall.RawConn
	size    int  // the pipe's capacity when last read or set
	refused bool // growing it failed: it is not tried again
}

func (p *pipeOut) Write(b []byte) (int, error) {
	if len(b) > p.size && p.size < maxPipe && !p.refused {
		p.grow(len(b))
	}
	return p.Writer.Write(b)
}

// grow makes the pipe hold n bytes, or as near as maxPipe allows. It never
// shrinks it: the client may have grown it meanwhile. Refused (the user's
// pipes hold too much already, or the limit was lowered), a long message
// goes in turns, as it would have.
func (p *pipeOut) grow(n int) {
	if size, err := pipeSize(p.rc, unix.F_GETPIPE_SZ, 0); err == nil {
		p.size = size
	}
	if p.size >= n || p.size >= maxPipe {
		return
	}
	want := maxPipe
	for half := want / 2; half >= n; half /= 2 {
		want = half
	}
	size, err := pipeSize(p.rc, unix.F_SETPIPE_SZ, want)
	if err != nil {
		p.refused = true
		return
	}
	p.size = size
}

// pipeSize runs fcntl(cmd, arg) on the descriptor and returns its result:
// a pipe's capacity, for F_GETPIPE_SZ and F_SETPIPE_SZ.
func pipeSize(rc syscall.RawConn, cmd, arg int) (int, error) {
	var size int
	var ferr error
	if err := rc.Control(func(fd uintptr) { size, ferr = unix.FcntlInt(fd, cmd, arg) }); err != nil {
		return 0, err
	}
	return size, ferr
}
