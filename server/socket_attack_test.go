package server

import (
	"fmt"
	"io"
	"net"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/assent-sh/assent/server/servertest"
)

// TestSocket_RefusesAnotherUser dials the console's socket as another
// user, with the directory and the socket opened to everyone, so that the
// peer's uid, as the kernel reports it, is all that stands in the way: the
// connection is closed with not a byte answered, and the call it sent never
// reaches the queue.
func TestSocket_RefusesAnotherUser(t *testing.T) {
	if os.Getuid() != 0 {
		t.Skip("needs root, to act as another user")
	}
	f := newFixture(t, nil)
	dir := runtimeDir(t)
	k := f.serveSocket(dir, "")
	for path, mode := range map[string]os.FileMode{dir: 0o755, k.Path(): 0o666} {
		if err := os.Chmod(path, mode); err != nil {
			t.Fatal(err)
		}
	}
	_, out := asForeignUser(t, "TestHelperForeignDialer", "ASSENT_TEST_FOREIGN_DIALER="+k.Path())
	line, _ := out.ReadString('\n')
	if !strings.HasPrefix(line, "received 0 bytes,") || strings.Contains(line, "timeout") {
		t.Errorf("the other user's connection: %q; want it closed with no answer", line)
	}
	if calls := f.Queue.Snapshot().Calls; len(calls) > 0 {
		t.Errorf("the other user's call reached the queue: %+v", calls)
	}
}

// TestHelperForeignDialer is the client TestSocket_RefusesAnotherUser runs
// as another user: it sends initialize and a call, ends its input, and
// reports how many bytes came back and how the connection ended.
func TestHelperForeignDialer(t *testing.T) {
	path := os.Getenv("ASSENT_TEST_FOREIGN_DIALER")
	if path == "" {
		t.Skip("a helper process for TestSocket_RefusesAnotherUser")
	}
	conn, err := net.DialUnix("unix", nil, &net.UnixAddr{Name: path, Net: "unix"})
	if err != nil {
		fmt.Println("dial:", err)
		return
	}
	defer conn.Close()
	conn.SetDeadline(time.Now().Add(10 * time.Second))
	// Write errors are expected: a refused connection may be closed first.
	io.WriteString(conn, servertest.Initialize("intruder")+"\n"+servertest.Initialized+"\n"+callChange("2", "f")+"\n")
	conn.CloseWrite()
	n, err := io.Copy(io.Discard, conn)
	fmt.Printf("received %d bytes, ended by %v\n", n, err)
}
