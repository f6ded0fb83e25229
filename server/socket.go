package server

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"net"
	"os"
	"sync"
	"time"

	"github.com/assent-sh/assent/state"
)

// SocketOptions configure the local socket that `assent stdio` relays to.
type SocketOptions struct {
	// Dir is the runtime directory; default state.RuntimeDir(), found from
	// the uid alone. The command line never sets it: it is for tests, which
	// must not meet a real console.
	Dir string
	// Name names this console among others of this user; default the
	// first free of "console", "console-2", … A name in use is an error.
	Name string
	// URL is the HTTP endpoint, written to the runtime file for display.
	URL string
}

// Socket is the console listening on a unix socket in the per-user
// runtime directory: NAME.sock, with NAME.json beside it. The directory
// is verified (a real directory, this user's, mode 0700) before anything
// is created in it, and every connection's peer must be this user, by the
// kernel's account. No token is needed: reaching the socket is the proof.
// Each connection is one client in a session of its own, spoken to as
// over stdio.
type Socket struct {
	s     *Server
	ln    *net.UnixListener
	claim *claim

	ctx    context.Context // ends every connection's requests
	cancel context.CancelFunc
	wg     sync.WaitGroup
	mu     sync.Mutex
	conns  map[net.Conn]struct{}
	// release removes the console's files once, however often Shutdown
	// is called: a second removal could remove a later console's.
	release func() error
}

// ListenSocket claims a console name and listens on its socket.
func (s *Server) ListenSocket(o SocketOptions) (*Socket, error) {
	dir := o.Dir
	var err error
	if dir == "" {
		dir, err = state.RuntimeDir()
	} else {
		err = state.PrivateDir(dir)
	}
	if err != nil {
		return nil, fmt.Errorf("the local socket: %w", err)
	}
	c, err := claimName(dir, o.Name)
	if err != nil {
		return nil, err
	}
	// Holding the name, a socket file left there is a crashed console's.
	path := c.path(".sock")
	if err := os.Remove(path); err != nil && !errors.Is(err, os.ErrNotExist) {
		return nil, errors.Join(fmt.Errorf("the local socket: %w", err), c.release())
	}
	ln, err := net.ListenUnix("unix", &net.UnixAddr{Name: path, Net: "unix"})
	if err != nil {
		return nil, errors.Join(fmt.Errorf("the local socket: %w", err), c.release())
	}
	ln.SetUnlinkOnClose(false) // release removes it, holding the name
	// The directory already keeps others out; the socket's own mode
	// says the same, whatever the umask.
	if err := os.Chmod(path, 0o600); err != nil {
		return nil, errors.Join(fmt.Errorf("the local socket: %w", err), ln.Close(), c.release())
	}
	rt := Runtime{Name: c.name, Socket: path, URL: o.URL, PID: os.Getpid(), Started: time.Now().UTC()}
	if err := writeRuntime(c.path(".json"), rt); err != nil {
		return nil, errors.Join(err, ln.Close(), c.release())
	}
	k := &Socket{s: s, ln: ln, claim: c, conns: map[net.Conn]struct{}{}, release: sync.OnceValue(c.release)}
	k.ctx, k.cancel = context.WithCancel(context.Background())
	return k, nil
}

// Name is the console's name.
func (k *Socket) Name() string { return k.claim.name }

// Path is the socket's path.
func (k *Socket) Path() string { return k.claim.path(".sock") }

// runtimeFile is the path of the console's runtime file.
func (k *Socket) runtimeFile() string { return k.claim.path(".json") }

// Serve accepts connections until Shutdown; it then returns nil.
func (k *Socket) Serve() error {
	for {
		conn, err := k.ln.AcceptUnix()
		if err != nil {
			if k.ctx.Err() != nil {
				return nil
			}
			var ne net.Error
			if errors.As(err, &ne) && ne.Timeout() {
				continue
			}
			return err
		}
		if uid, pid, err := peerCred(conn); err != nil || uid != os.Getuid() {
			k.s.log.Warn("refused a local connection from another user", "uid", uid, "pid", pid, "err", err)
			conn.Close()
			continue
		}
		k.serve(conn)
	}
}

// serve runs one connection in its own session.
func (k *Socket) serve(conn *net.UnixConn) {
	k.mu.Lock()
	defer k.mu.Unlock()
	if k.ctx.Err() != nil {
		conn.Close()
		return
	}
	k.conns[conn] = struct{}{}
	k.wg.Go(func() {
		if err := k.s.serveLines(k.ctx, "relay-"+randomID(), conn, conn); err != nil && k.ctx.Err() == nil {
			k.s.log.Warn("local connection", "err", err)
		}
		conn.Close()
		k.mu.Lock()
		delete(k.conns, conn)
		k.mu.Unlock()
	})
}

// Shutdown stops accepting, ends every connection's requests (close the
// queue first, so that each call has been answered) and waits until their
// answers are written or ctx ends; then it removes the console's files.
func (k *Socket) Shutdown(ctx context.Context) error {
	k.mu.Lock()
	k.cancel()
	lerr := k.ln.Close()
	if errors.Is(lerr, net.ErrClosed) {
		lerr = nil // shut down before
	}
	k.mu.Unlock()
	done := make(chan struct{})
	go func() { k.wg.Wait(); close(done) }()
	var werr error
	select {
	case <-done:
	case <-ctx.Done():
		werr = fmt.Errorf("the local socket's connections did not end: %w", ctx.Err())
		k.mu.Lock()
		for conn := range k.conns {
			conn.Close()
		}
		k.mu.Unlock()
	}
	return errors.Join(lerr, werr, k.release())
}

// randomID is 8 random hex digits, to tell sessions apart in the journal.
func randomID() string {
	b := make([]byte, 4)
	rand.Read(b)
	return hex.EncodeToString(b)
}
