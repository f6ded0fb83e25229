//go:build linux

package exec

import (
	"bytes"
	"strconv"
	"sync"
	"syscall"

	"golang.org/x/sys/unix"
)

// Program facts are cached per file identity; past this many files the
// cache starts over rather than grow with every edited command.
const maxPrograms = 1024

// maxInterpreters is how deep a chain of #! interpreters may go, as the
// kernel allows.
const maxInterpreters = 4

// programFile is a command's program, opened for the start.
type programFile struct {
	fd int // O_PATH, close-on-exec
	id Identity
	// interp lists the interpreters a #! line names (the script's, then
	// its interpreter's, if that is a script too); empty for a binary.
	interp []string
}

// openProgram opens path, following symlinks, as the file the child will
// run, and reads its identity from the open file: what is compared with the
// pinned identity is then what a start through /proc/self/fd/N executes.
func openProgram(path string) (*programFile, error) {
	fd, err := unix.Open(path, unix.O_PATH|unix.O_CLOEXEC, 0)
	if err == nil {
		fd, err = aboveStdio(fd)
	}
	if err != nil {
		return nil, err
	}
	var st syscall.Stat_t
	if err := syscall.Fstat(fd, &st); err != nil {
		unix.Close(fd)
		return nil, err
	}
	return &programFile{fd: fd, id: identityOfStat(&st)}, nil
}

// programKey names one version of one file.
type programKey struct {
	dev, ino     uint64
	size         int64
	mtime, ctime int64
}

// programs caches what the runner reads from program files, by identity,
// so the #! line of a program is read once, not on every call.
type programs struct {
	mu sync.Mutex
	m  map[programKey][]string
}

// interpreters fills p.interp, from the cache or from the file.
func (c *programs) interpreters(p *programFile) {
	k := programKey{p.id.Dev, p.id.Ino, p.id.Size, p.id.Mtime.UnixNano(), p.id.Ctime.UnixNano()}
	c.mu.Lock()
	interp, ok := c.m[k]
	c.mu.Unlock()
	if !ok {
		interp = interpreterChain("/proc/self/fd/" + strconv.Itoa(p.fd))
		c.mu.Lock()
		if c.m == nil || len(c.m) >= maxPrograms {
			c.m = make(map[programKey][]string)
		}
		c.m[k] = interp
		c.mu.Unlock()
	}
	p.interp = interp
}

// interpreterChain follows #! lines from the file at path.
func interpreterChain(path string) []string {
	var chain []string
	for range maxInterpreters {
		next := shebang(path)
		if next == "" {
			break
		}
		chain = append(chain, next)
		path = next
	}
	return chain
}

// shebang returns the interpreter a file's #! line names, or "" for a file
// without one (or one this process cannot read, which is then no script it
// could run either).
func shebang(path string) string {
	fd, err := unix.Open(path, unix.O_RDONLY|unix.O_CLOEXEC|unix.O_NONBLOCK, 0)
	if err != nil {
		return ""
	}
	defer unix.Close(fd)
	var buf [256]byte // the kernel reads no more of a #! line
	n, _ := unix.Read(fd, buf[:])
	if n < 3 || buf[0] != '#' || buf[1] != '!' {
		return ""
	}
	line := buf[2:n]
	if i := bytes.IndexByte(line, '\n'); i >= 0 {
		line = line[:i]
	}
	f := bytes.Fields(line)
	if len(f) == 0 || f[0][0] != '/' {
		return ""
	}
	return string(f[0])
}
