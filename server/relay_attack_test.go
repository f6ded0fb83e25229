package server

import (
	"context"
	"fmt"
	"io"
	"net"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
)

// trap listens on a unix socket at path and counts the connections it
// accepts and the bytes they send: a relay that trusts it shows there.
type trap struct {
	ln            net.Listener
	accepted, got atomic.Int64
}

func newTrap(t *testing.T, path string) *trap {
	t.Helper()
	ln, err := net.Listen("unix", path)
	if err != nil {
		t.Fatal(err)
	}
	tr := &trap{ln: ln}
	done := make(chan struct{})
	go func() {
		defer close(done)
		for {
			conn, err := ln.Accept()
			if err != nil {
				return
			}
			tr.accepted.Add(1)
			n, _ := io.Copy(io.Discard, conn)
			tr.got.Add(n)
			conn.Close()
		}
	}()
	t.Cleanup(func() { ln.Close(); <-done })
	return tr
}

// relayOnce runs the relay with an initialize on its input and returns
// its error and what it wrote.
func relayOnce(dir, name string) (error, string) {
	var out strings.Builder
	in := strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{}}` + "\n")
	err := Relay(context.Background(), RelayOptions{Dir: dir, Console: name}, in, &out)
	return err, out.String()
}

// TestRelay_RefusesWhatItCannotVerify plants what another user could
// plant; the relay refuses each and sends nothing.
func TestRelay_RefusesWhatItCannotVerify(t *testing.T) {
	root := os.Getuid() == 0
	tests := []struct {
		name  string
		plant func(t *testing.T, dir string) *trap
		want  string
		root  bool
	}{
		{"directory others may use", func(t *testing.T, dir string) *trap {
			tr := newTrap(t, filepath.Join(dir, "console.sock"))
			if err := os.Chmod(dir, 0o777); err != nil {
				t.Fatal(err)
			}
			return tr
		}, "may be used by group or others", false},
		{"directory a symlink", nil, "is a symlink", false},
		{"socket a symlink", func(t *testing.T, dir string) *trap {
			other := runtimeDir(t)
			tr := newTrap(t, filepath.Join(other, "real.sock"))
			if err := os.Symlink(filepath.Join(other, "real.sock"), filepath.Join(dir, "console.sock")); err != nil {
				t.Fatal(err)
			}
			return tr
		}, "is not a socket", false},
		{"socket another user's", func(t *testing.T, dir string) *trap {
			tr := newTrap(t, filepath.Join(dir, "console.sock"))
			if err := os.Lchown(filepath.Join(dir, "console.sock"), 4242, 4242); err != nil {
				t.Fatal(err)
			}
			return tr
		}, "is not this user's", true},
		{"listener another user's", plantForeignListener, "listening on", true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if tc.root && !root {
				t.Skip("needs root, to act as another user")
			}
			dir := runtimeDir(t)
			var tr *trap
			if tc.plant == nil { // the directory itself replaced by a symlink
				link := dir + "-link"
				if err := os.Symlink(dir, link); err != nil {
					t.Fatal(err)
				}
				t.Cleanup(func() { os.Remove(link) })
				tr = newTrap(t, filepath.Join(dir, "console.sock"))
				dir = link
			} else {
				tr = tc.plant(t, dir)
			}
			for _, name := range []string{"", "console"} {
				err, out := relayOnce(dir, name)
				if err == nil || !strings.Contains(err.Error(), tc.want) {
					t.Errorf("relay to %q: %v, want an error saying %q", name, err, tc.want)
				}
				if out != "" {
					t.Errorf("the relay answered the agent with %q", out)
				}
			}
			if tr != nil && tr.got.Load() != 0 {
				t.Errorf("the planted listener received %d bytes", tr.got.Load())
			}
		})
	}
}

// plantForeignListener starts a listener as another user (this test
// binary, run as TestHelperForeignListener) and moves its socket into dir,
// owned by this user: only the kernel's account of the peer tells them
// apart.
func plantForeignListener(t *testing.T, dir string) *trap {
	sock := filepath.Join(foreignDir(t), "s.sock")
	cmd, r := asForeignUser(t, "TestHelperForeignListener", "ASSENT_TEST_FOREIGN_LISTENER="+sock)
	if line, _ := r.ReadString('\n'); line != "ready\n" {
		t.Fatalf("helper said %q", line)
	}
	planted := filepath.Join(dir, "console.sock")
	if err := os.Rename(sock, planted); err != nil {
		t.Fatal(err)
	}
	if err := os.Lchown(planted, os.Getuid(), os.Getgid()); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cmd.Process.Signal(syscall.SIGTERM)
		if rest, _ := io.ReadAll(r); strings.Contains(string(rest), "received") {
			t.Errorf("the foreign listener %s", rest)
		}
	})
	return nil
}

// TestHelperForeignListener is the listener plantForeignListener runs as
// another user; it reports any byte it receives.
func TestHelperForeignListener(t *testing.T) {
	path := os.Getenv("ASSENT_TEST_FOREIGN_LISTENER")
	if path == "" {
		t.Skip("a helper process for TestRelay_RefusesWhatItCannotVerify")
	}
	ln, err := net.Listen("unix", path)
	if err != nil {
		t.Fatal(err)
	}
	fmt.Println("ready")
	for {
		conn, err := ln.Accept()
		if err != nil {
			return
		}
		if n, _ := io.Copy(io.Discard, conn); n > 0 {
			fmt.Printf("received %d bytes\n", n)
		}
		conn.Close()
	}
}
