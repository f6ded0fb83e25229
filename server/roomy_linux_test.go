package server

import (
	"bufio"
	"bytes"
	"context"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"github.com/assent-sh/assent/queue/queuetest"
	"github.com/assent-sh/assent/server/servertest"
)

// newPipe returns a pipe's two ends, closed at the end of the test.
func newPipe(t *testing.T) (r, w *os.File) {
	t.Helper()
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { r.Close(); w.Close() })
	return r, w
}

// newSocketPair returns a connected pair of Unix stream sockets, as Node
// gives a program it starts for its stdio, closed at the end of the test.
func newSocketPair(t *testing.T) (r, w *os.File) {
	t.Helper()
	fds, err := unix.Socketpair(unix.AF_UNIX, unix.SOCK_STREAM|unix.SOCK_CLOEXEC, 0)
	if err != nil {
		t.Fatal(err)
	}
	r, w = os.NewFile(uintptr(fds[0]), "client"), os.NewFile(uintptr(fds[1]), "server")
	t.Cleanup(func() { r.Close(); w.Close() })
	return r, w
}

// capacity is the pipe's size as the kernel reports it.
func capacity(t *testing.T, f *os.File) int {
	t.Helper()
	n, err := unix.FcntlInt(f.Fd(), unix.F_GETPIPE_SZ, 0)
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// unreadWrite writes msg to w while nothing reads it, and fails the test
// if the write waits for a reader.
func unreadWrite(t *testing.T, w io.Writer, msg []byte) {
	t.Helper()
	done := make(chan error, 1)
	go func() {
		_, err := w.Write(msg)
		done <- err
	}()
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(10 * time.Second):
		t.Fatalf("writing %d bytes waited for a reader: the pipe was not grown to hold them", len(msg))
	}
}

// readBack reads len(msg) bytes from r and fails the test unless they are msg.
func readBack(t *testing.T, r io.Reader, msg []byte) {
	t.Helper()
	got := make([]byte, len(msg))
	if _, err := io.ReadFull(r, got); err != nil || !bytes.Equal(got, msg) {
		t.Fatalf("read back %d bytes (%v), not the message written", len(got), err)
	}
}

func TestRoomyOut_PipeHoldsALongMessageUnread(t *testing.T) {
	r, w := newPipe(t)
	msg := bytes.Repeat([]byte("0123456789abcdef"), 300<<10/16) // 300 KiB
	if before := capacity(t, w); len(msg) <= before {
		t.Fatalf("the pipe holds %d bytes already: the test needs a longer message", before)
	}
	out := roomyOut(w)
	unreadWrite(t, out, msg)
	// The smallest power of two that holds it: a larger pipe is charged
	// to the user's pipes for nothing.
	if got := capacity(t, w); got != 512<<10 {
		t.Errorf("the pipe holds %d bytes, want %d", got, 512<<10)
	}
	readBack(t, r, msg)
	unreadWrite(t, out, []byte("short\n"))
	if got := capacity(t, w); got != 512<<10 {
		t.Errorf("a short message changed the pipe's size to %d", got)
	}
}

func TestRoomyOut_PipeGrowsNoFurtherThanTheLimit(t *testing.T) {
	r, w := newPipe(t)
	msg := bytes.Repeat([]byte("x"), 3*maxPipe/2)
	read := make(chan []byte, 1)
	go func() {
		got, _ := io.ReadAll(io.LimitReader(r, int64(len(msg))))
		read <- got
	}()
	if _, err := roomyOut(w).Write(msg); err != nil {
		t.Fatal(err)
	}
	if got := <-read; !bytes.Equal(got, msg) {
		t.Fatalf("read back %d bytes, not the %d written", len(got), len(msg))
	}
	if got := capacity(t, w); got != maxPipe {
		t.Errorf("the pipe holds %d bytes, want the limit %d", got, maxPipe)
	}
}

// A pipe the other end grew after roomyOut looked is not shrunk.
func TestRoomyOut_PipeNeverShrinks(t *testing.T) {
	r, w := newPipe(t)
	out := roomyOut(w)
	if _, err := unix.FcntlInt(r.Fd(), unix.F_SETPIPE_SZ, maxPipe); err != nil {
		t.Fatal(err)
	}
	unreadWrite(t, out, bytes.Repeat([]byte("y"), 200<<10))
	if got := capacity(t, w); got != maxPipe {
		t.Errorf("the pipe holds %d bytes, want the %d its reader set", got, maxPipe)
	}
}

func TestRoomyOut_LeavesOtherWritersAlone(t *testing.T) {
	var buf bytes.Buffer
	if out := roomyOut(&buf); out != io.Writer(&buf) {
		t.Errorf("a buffer came back as %T", out)
	}
	f, err := os.Create(filepath.Join(t.TempDir(), "out"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if out := roomyOut(f); out != io.Writer(f) {
		t.Errorf("a regular file came back as %T", out)
	}
	// Growing a socket pair's send buffer made a start slower as Node,
	// which gives its children socket pairs, measured it.
	if _, w := newSocketPair(t); roomyOut(w) != io.Writer(w) {
		t.Errorf("a socket came back as %T", roomyOut(w))
	}
}

// Over stdio on a pipe, a tools/list answer of 200 tools is written whole
// before the client reads a byte of it.
func TestServeStdio_ListFitsThePipe(t *testing.T) {
	q := queuetest.New(t, queuetest.Options{Tools: servertest.ManyTools(200)})
	s, err := New(q.Config(), Options{Queue: q.Queue})
	if err != nil {
		t.Fatal(err)
	}
	list, _ := s.listTools(parseMessage([]byte(`{"jsonrpc":"2.0","id":2,"method":"tools/list"}`)))
	inR, inW := newPipe(t)
	outR, outW := newPipe(t)
	served := make(chan error, 1)
	go func() { served <- s.ServeStdio(context.Background(), inR, outW) }()
	if _, err := io.WriteString(inW, servertest.Initialize("room")+"\n"+servertest.Initialized+"\n"); err != nil {
		t.Fatal(err)
	}
	lines := bufio.NewReader(outR)
	if line, err := lines.ReadString('\n'); err != nil || !strings.Contains(line, `"id":1`) {
		t.Fatalf("initialize answered %q, %v", line, err)
	}
	if _, err := io.WriteString(inW, `{"jsonrpc":"2.0","id":2,"method":"tools/list"}`+"\n"); err != nil {
		t.Fatal(err)
	}
	want := len(list) + 1 // and its newline
	deadline := time.Now().Add(10 * time.Second)
	for {
		n, err := unix.IoctlGetInt(int(outR.Fd()), unix.TIOCINQ)
		if err != nil {
			t.Fatal(err)
		}
		if n >= want {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the pipe holds %d bytes of the %d-byte answer, unread: it was not grown", n, want)
		}
		time.Sleep(time.Millisecond)
	}
	if answer, err := lines.ReadString('\n'); err != nil || answer != string(list)+"\n" {
		t.Fatalf("tools/list answered %d bytes (%v), not the list", len(answer), err)
	}
	inW.Close()
	if err := <-served; err != nil {
		t.Fatal(err)
	}
}
