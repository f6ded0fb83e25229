package exec

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"time"
)

// Overflow says what happens when a stream passes its output cap.
type Overflow string

const (
	// Drain keeps reading and counting the stream past the cap, discarding
	// the bytes, so the child runs to completion. It is the default.
	Drain Overflow = "drain"
	// Kill ends the process group as soon as a stream passes the cap.
	Kill Overflow = "kill"
)

// Command is the frozen result of expanding a tool call: exactly what will be
// passed to execve. Every field is decided before the call is shown to an
// operator, and nothing downstream re-parses or re-splits it.
type Command struct {
	// Path is the absolute path of the program, resolved when the tool file
	// was loaded.
	Path string `json:"path"`
	// Argv is the full argument vector. Argv[0] is the program as the
	// template wrote it; the rest are passed to the child word for word.
	Argv []string `json:"argv"`
	// Dir is the working directory of the child; empty means the server's.
	Dir string `json:"cwd,omitempty"`
	// Env holds KEY=VALUE pairs the tool declares. They are added to the
	// runner's minimal base environment; nothing else is inherited.
	Env []string `json:"env,omitempty"`
	// Stdin is the text written to the child's standard input. Empty means
	// the child reads /dev/null.
	Stdin string `json:"stdin,omitempty"`
	// Timeout bounds the run; when it passes, the process group is
	// terminated. Zero means the runner's default.
	Timeout time.Duration `json:"timeout,omitempty"`
	// MaxOutput caps what is kept of each of stdout and stderr, in bytes.
	// Zero means the runner's default.
	MaxOutput int64 `json:"max_output,omitempty"`
	// OnOverflow says what happens past MaxOutput; empty means Drain.
	OnOverflow Overflow `json:"on_overflow,omitempty"`
	// Sandbox confines the command; nil runs it unconfined (the tool says
	// `sandbox: false`, or the settings turn the sandbox off).
	Sandbox *Sandbox `json:"sandbox,omitempty"`
	// Program is the identity of the file at Path when the tool loaded;
	// the zero value skips the check (a command edited to a new program
	// pins it when the edit is accepted).
	Program Identity `json:"program,omitzero"`
	// Paths are the path arguments as they were resolved, checked again
	// right before start.
	Paths []PathCheck `json:"paths,omitempty"`
}

// Validate checks the invariants every runnable command keeps: an absolute
// program path, at least one argv element, and no NUL byte anywhere (execve
// would silently cut the string there, so what ran would differ from what was
// shown). An edited command is checked with it before it may run.
func (c Command) Validate() error {
	if c.Path == "" || !filepath.IsAbs(c.Path) {
		return fmt.Errorf("program path %q is not absolute", c.Path)
	}
	if len(c.Argv) == 0 {
		return errors.New("argv is empty")
	}
	hasNUL := func(s string) bool { return strings.IndexByte(s, 0) >= 0 }
	if hasNUL(c.Path) {
		return errors.New("program path contains a NUL byte")
	}
	for i, a := range c.Argv {
		if hasNUL(a) {
			return fmt.Errorf("argv[%d] contains a NUL byte", i)
		}
	}
	if hasNUL(c.Dir) {
		return errors.New("working directory contains a NUL byte")
	}
	for _, kv := range c.Env {
		if hasNUL(kv) {
			return errors.New("environment entry contains a NUL byte")
		}
		if k, _, ok := strings.Cut(kv, "="); !ok || k == "" {
			return fmt.Errorf("environment entry %q is not KEY=VALUE", kv)
		}
	}
	if c.Dir != "" && !filepath.IsAbs(c.Dir) {
		return fmt.Errorf("working directory %q is not absolute", c.Dir)
	}
	if c.OnOverflow != "" && c.OnOverflow != Drain && c.OnOverflow != Kill {
		return fmt.Errorf("unknown overflow action %q", c.OnOverflow)
	}
	return c.validateConfinement()
}

// validateConfinement checks the fields that hold a command to what was
// approved: the sandbox's paths and the path arguments to check again.
func (c Command) validateConfinement() error {
	if c.Sandbox != nil {
		if err := c.Sandbox.validate(); err != nil {
			return err
		}
	}
	for i, p := range c.Paths {
		if err := checkAbsPath(fmt.Sprintf("path argument %d as given", i), p.Given); err != nil {
			return err
		}
		if err := checkAbsPath(fmt.Sprintf("path argument %d as resolved", i), p.Resolved); err != nil {
			return err
		}
	}
	return nil
}

// Hash returns a SHA-256 over an unambiguous encoding of every field that
// decides what runs. It is taken when a call is shown for approval and checked
// again just before it starts, so what the operator approved is what runs.
//
// That includes the confinement: the sandbox (a wider write set is a
// different approval), the program's identity (the file that runs, which
// the path alone does not fix) and the path checks (dropping one would run
// the same argv without holding its path to what was shown). The identity's
// hash is left out: it describes the same file as the other fields and may
// be filled in later, for the journal.
func (c Command) Hash() string {
	h := sha256.New()
	var n [8]byte
	put := func(s string) {
		binary.BigEndian.PutUint64(n[:], uint64(len(s)))
		h.Write(n[:])
		h.Write([]byte(s))
	}
	putList := func(l []string) {
		binary.BigEndian.PutUint64(n[:], uint64(len(l)))
		h.Write(n[:])
		for _, s := range l {
			put(s)
		}
	}
	put(c.Path)
	putList(c.Argv)
	put(c.Dir)
	putList(c.Env)
	put(c.Stdin)
	put(c.Timeout.String())
	put(fmt.Sprint(c.MaxOutput))
	put(string(c.OnOverflow))
	if c.Sandbox == nil {
		put("unsandboxed")
	} else {
		put("sandbox")
		putList(c.Sandbox.Read)
		putList(c.Sandbox.Write)
		put(fmt.Sprint(c.Sandbox.Network))
	}
	if p := c.Program; p.IsZero() {
		put("unpinned")
	} else {
		put(fmt.Sprint(p.Dev, p.Ino, p.Size, p.Mtime.UnixNano(), p.Ctime.UnixNano()))
	}
	binary.BigEndian.PutUint64(n[:], uint64(len(c.Paths)))
	h.Write(n[:])
	for _, pc := range c.Paths {
		put(pc.Given)
		put(pc.Resolved)
	}
	return hex.EncodeToString(h.Sum(nil))
}
