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

// capacity is the pipe's size as the kernel reports it.
func capacity(t *testing.T, f *os.File) int {
	t.Helper()
	n, err := unix.FcntlInt(f.Fd(), unix.F_GETPIPE_SZ, 0)
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// unreadWrite writes msg to w while nothing reads the pipe, and fails the
// test if the write waits for a reader.
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

func TestRoomyPipe_HoldsALongMessageUnread(t *testing.T) {
	r, w := newPipe(t)
	before := capacity(t, w)
	msg := bytes.Repeat([]byte("0123456789abcdef"), 300<<10/16) // 300 KiB
	if len(msg) <= before {
		t.Fatalf("the pipe holds %d bytes already: the test needs a longer message", before)
	}
	out := roomyPipe(w)
	unreadWrite(t, out, msg)
	if got := capacity(t, w); got < len(msg) || got > maxPipe {
		t.Errorf("the pipe holds %d bytes, want at least %d and at most %d", got, len(msg), maxPipe)
	}
	got := make([]byte, len(msg))
	if _, err := io.ReadFull(r, got); err != nil || !bytes.Equal(got, msg) {
		t.Fatalf("read back %d bytes (%v), not the message written", len(got), err)
	}
	// A short message changes nothing.
	size := capacity(t, w)
	unreadWrite(t, out, []byte("short\n"))
	if got := capacity(t, w); got != size {
		t.Errorf("a short message changed the pipe's size from %d to %d", size, got)
	}
}

func TestRoomyPipe_GrowsNoFurtherThanTheLimit(t *testing.T) {
	r, w := newPipe(t)
	msg := bytes.Repeat([]byte("x"), 3*maxPipe/2)
	read := make(chan []byte, 1)
	go func() {
		got, _ := io.ReadAll(io.LimitReader(r, int64(len(msg))))
		read <- got
	}()
	if _, err := roomyPipe(w).Write(msg); err != nil {
		t.Fatal(err)
	}
	if got := <-read; !bytes.Equal(got, msg) {
		t.Fatalf("read back %d bytes, not the %d written", len(got), len(msg))
	}
	if got := capacity(t, w); got != maxPipe {
		t.Errorf("the pipe holds %d bytes, want the limit %d", got, maxPipe)
	}
}

// A pipe the other end grew after roomyPipe looked is not shrunk.
func TestRoomyPipe_NeverShrinks(t *testing.T) {
	r, w := newPipe(t)
	out := roomyPipe(w)
	if _, err := unix.FcntlInt(r.Fd(), unix.F_SETPIPE_SZ, maxPipe); err != nil {
		t.Fatal(err)
	}
	unreadWrite(t, out, bytes.Repeat([]byte("y"), 200<<10))
	if got := capacity(t, w); got != maxPipe {
		t.Errorf("the pipe holds %d bytes, want the %d its reader set", got, maxPipe)
	}
}

func TestRoomyPipe_LeavesOtherWritersAlone(t *testing.T) {
	var buf bytes.Buffer
	if out := roomyPipe(&buf); out != io.Writer(&buf) {
		t.Errorf("a buffer came back as %T", out)
	}
	f, err := os.Create(filepath.Join(t.TempDir(), "out"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if out := roomyPipe(f); out != io.Writer(f) {
		t.Errorf("a regular file came back as %T", out)
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
	inR, inW := newPipe(t)
	outR, outW := newPipe(t)
	served := make(chan error, 1)
	go func() { served <- s.ServeStdio(context.Background(), inR, outW) }()
	if _, err := io.WriteString(inW, servertest.Initialize("pipe")+"\n"+servertest.Initialized+"\n"); err != nil {
		t.Fatal(err)
	}
	lines := bufio.NewReader(outR)
	if line, err := lines.ReadString('\n'); err != nil || !strings.Contains(line, `"id":1`) {
		t.Fatalf("initialize answered %q, %v", line, err)
	}
	if _, err := io.WriteString(inW, `{"jsonrpc":"2.0","id":2,"method":"tools/list"}`+"\n"); err != nil {
		t.Fatal(err)
	}
	list, _ := s.listTools(parseMessage([]byte(`{"jsonrpc":"2.0","id":2,"method":"tools/list"}`)))
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
	answer, err := lines.ReadString('\n')
	if err != nil || answer != string(list)+"\n" {
		t.Fatalf("tools/list answered %d bytes (%v), not the list", len(answer), err)
	}
	inW.Close()
	if err := <-served; err != nil {
		t.Fatal(err)
	}
}
