package server

import (
	"io"
	"syscall"

	"golang.org/x/sys/unix"
)

// maxRoom is the most room a long message is given: for a pipe, the
// kernel's default ceiling for a process without CAP_SYS_RESOURCE
// (/proc/sys/fs/pipe-max-size).
const maxRoom = 1 << 20

// roomyOut returns out so that a message longer than the kernel holds of
// it unread first grows that room, up to maxRoom: a pipe's capacity
// (F_SETPIPE_SZ), or a socket's send buffer (SO_SNDBUF; Node's libuv gives
// the programs it starts socket pairs for their stdio). out is returned as
// it is when it is neither. A tools/list answer of 200 tools is some
// 340 KB: through a 64 KiB pipe it went in six turns, each waiting for the
// client to read the last, on a machine where the client may be waiting
// for a core; with room for it, in one write.
func roomyOut(out io.Writer) io.Writer {
	rc, ok := descriptorOf(out)
	if !ok {
		return out
	}
	for _, k := range []roomKind{pipeRoom{}, socketRoom{}} {
		if room, err := k.room(rc); err == nil {
			return &roomyWriter{Writer: out, rc: rc, kind: k, room: room}
		}
	}
	return out
}

// roomKind reads and sets the room of one kind of descriptor.
type roomKind interface {
	// room is how many bytes the descriptor holds unread.
	room(rc syscall.RawConn) (int, error)
	// grow asks for room for n bytes (n <= maxRoom) and returns the room
	// there is then.
	grow(rc syscall.RawConn, n int) (int, error)
}

// roomyWriter grows its descriptor's room for long messages. Write is
// called by one goroutine at a time (lineConn holds outMu).
type roomyWriter struct {
	io.Writer
	rc      syscall.RawConn
	kind    roomKind
	room    int  // when last read or set
	refused bool // growing it failed, or gave nothing: it is not tried again
}

func (w *roomyWriter) Write(b []byte) (int, error) {
	if len(b) > w.room && w.room < maxRoom && !w.refused {
		w.grow(min(len(b), maxRoom))
	}
	return w.Writer.Write(b)
}

// grow makes room for n bytes, or as many as the kernel gives. It reads
// the room first and never asks for less: the client may have grown it
// meanwhile (only a change between the read and the grow goes unseen).
// Refused (the user's pipes hold too much already, or a limit was
// lowered), a long message goes in turns, as it would have.
func (w *roomyWriter) grow(n int) {
	if room, err := w.kind.room(w.rc); err == nil {
		w.room = room
	}
	if w.room >= n {
		return
	}
	room, err := w.kind.grow(w.rc, n)
	if err != nil || room <= w.room {
		w.refused = true
		return
	}
	w.room = room
}

// pipeRoom is a pipe's capacity.
type pipeRoom struct{}

func (pipeRoom) room(rc syscall.RawConn) (int, error) { return fcntl(rc, unix.F_GETPIPE_SZ, 0) }

// grow asks for the smallest power of two that holds n: the kernel rounds
// a capacity up to one anyway, and charges it to the user's pipes
// (/proc/sys/fs/pipe-user-pages-soft) whether it is used or not.
func (pipeRoom) grow(rc syscall.RawConn, n int) (int, error) {
	want := maxRoom
	for half := want / 2; half >= n; half /= 2 {
		want = half
	}
	return fcntl(rc, unix.F_SETPIPE_SZ, want)
}

// socketRoom is a socket's send buffer. The kernel doubles what is asked,
// to count its own bookkeeping, and reports the doubled size; half of it
// is taken as room for data (a socket pair with the default 208 KiB,
// reported as 416 KiB, held 176 KiB of 4 KiB writes here), and it
// silently caps what is asked at /proc/sys/net/core/wmem_max.
type socketRoom struct{}

func (socketRoom) room(rc syscall.RawConn) (int, error) {
	size, err := onFD(rc, func(fd int) (int, error) { return unix.GetsockoptInt(fd, unix.SOL_SOCKET, unix.SO_SNDBUF) })
	return size / 2, err
}

func (s socketRoom) grow(rc syscall.RawConn, n int) (int, error) {
	if _, err := onFD(rc, func(fd int) (int, error) {
		return 0, unix.SetsockoptInt(fd, unix.SOL_SOCKET, unix.SO_SNDBUF, n)
	}); err != nil {
		return 0, err
	}
	return s.room(rc)
}

// fcntl runs fcntl(cmd, arg) on the descriptor and returns its result.
func fcntl(rc syscall.RawConn, cmd, arg int) (int, error) {
	return onFD(rc, func(fd int) (int, error) { return unix.FcntlInt(uintptr(fd), cmd, arg) })
}

// onFD runs f on the descriptor and returns what it returns.
func onFD(rc syscall.RawConn, f func(fd int) (int, error)) (int, error) {
	var v int
	var ferr error
	if err := rc.Control(func(fd uintptr) { v, ferr = f(int(fd)) }); err != nil {
		return 0, err
	}
	return v, ferr
}
