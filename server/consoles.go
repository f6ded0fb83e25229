package server

import (
	"errors"
	"fmt"
	"io/fs"
	"net"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"syscall"
	"time"

	"github.com/assent-sh/assent/state"
)

// Console is a console running for this user, as its socket shows it.
type Console struct {
	// Name is its name (`assent stdio --console NAME`).
	Name string
	// Socket is its socket's path.
	Socket string
	// PID is its process id, from the kernel (SO_PEERCRED), not a file.
	PID int
}

// dialTimeout bounds connecting to a socket that should answer at once.
const dialTimeout = 2 * time.Second

// Consoles lists the consoles running for this user in dir (default
// state.RuntimeDir()), by name. A socket nobody listens on (a crashed
// console's) is skipped; one that fails a check is skipped and reported
// in the error, which is otherwise nil.
func Consoles(dir string) ([]Console, error) {
	dir, err := runtimeDirFor(dir)
	if err != nil {
		return nil, err
	}
	socks, err := filepath.Glob(filepath.Join(dir, "*.sock"))
	if err != nil {
		return nil, err
	}
	var live []Console
	var refused []error
	for _, path := range socks {
		conn, c, err := dialSocket(path)
		switch {
		case errors.Is(err, syscall.ECONNREFUSED), errors.Is(err, fs.ErrNotExist):
			continue // gone, or left by a console that crashed
		case err != nil:
			refused = append(refused, err)
			continue
		}
		conn.Close()
		live = append(live, c)
	}
	sort.Slice(live, func(i, j int) bool { return live[i].Name < live[j].Name })
	return live, errors.Join(refused...)
}

// DialConsole connects to the console named name in dir (default
// state.RuntimeDir()), or with name "" to the only one running. It checks
// the directory (this user's, 0700, not a symlink), the socket file (a
// socket, this user's) and the process that listens on it (this user's,
// by SO_PEERCRED) before it returns the connection, and sends nothing.
func DialConsole(dir, name string) (*net.UnixConn, Console, error) {
	dir, err := runtimeDirFor(dir)
	if err != nil {
		return nil, Console{}, err
	}
	if name != "" {
		if err := CheckConsoleName(name); err != nil {
			return nil, Console{}, err
		}
		conn, c, err := dialSocket(filepath.Join(dir, name+".sock"))
		if errors.Is(err, syscall.ECONNREFUSED) || errors.Is(err, fs.ErrNotExist) {
			live, _ := Consoles(dir)
			return nil, Console{}, fmt.Errorf("no console named %q is running%s", name, listed(live))
		}
		return conn, c, err
	}
	live, lerr := Consoles(dir)
	switch len(live) {
	case 0:
		msg := "no console is running (no socket in " + dir + "): start `assent` in a terminal first, or serve here with `assent stdio --headless`"
		if lerr != nil {
			msg += "; refused: " + lerr.Error()
		}
		return nil, Console{}, errors.New(msg)
	case 1:
		return DialConsole(dir, live[0].Name)
	}
	return nil, Console{}, fmt.Errorf("%d consoles are running%s: choose one with --console NAME", len(live), listed(live))
}

// dialSocket connects to the socket at path after checking the file, and
// checks the listener's uid.
func dialSocket(path string) (*net.UnixConn, Console, error) {
	c := Console{Name: strings.TrimSuffix(filepath.Base(path), ".sock"), Socket: path}
	fi, err := os.Lstat(path)
	if err != nil {
		return nil, c, err
	}
	owner, ok := state.Owner(fi)
	switch {
	case fi.Mode()&fs.ModeSocket == 0:
		return nil, c, fmt.Errorf("%s is not a socket (%s)", path, fi.Mode().Type())
	case !ok || owner != os.Getuid():
		return nil, c, fmt.Errorf("socket %s is not this user's", path)
	}
	d := net.Dialer{Timeout: dialTimeout}
	nc, err := d.Dial("unix", path)
	if err != nil {
		return nil, c, err
	}
	conn := nc.(*net.UnixConn)
	uid, pid, err := peerCred(conn)
	if err != nil || uid != os.Getuid() {
		conn.Close()
		return nil, c, fmt.Errorf("the process listening on %s is not this user's (uid %d, pid %d, %v); nothing was sent", path, uid, pid, err)
	}
	c.PID = pid
	return conn, c, nil
}

// runtimeDirFor checks dir, or finds and checks the runtime directory. A
// directory that does not exist holds no console, which is no error.
func runtimeDirFor(dir string) (string, error) {
	if dir == "" {
		return state.RuntimeDir()
	}
	if err := state.CheckPrivateDir(dir); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return dir, err
	}
	return dir, nil
}

// listed names the consoles, for a message.
func listed(cs []Console) string {
	if len(cs) == 0 {
		return ""
	}
	names := make([]string, len(cs))
	for i, c := range cs {
		names[i] = fmt.Sprintf("%s (pid %d)", c.Name, c.PID)
	}
	return " (running: " + strings.Join(names, ", ") + ")"
}
