package exec

import (
	"fmt"
	"path/filepath"
	"strings"
	"time"
)

// Sandbox is what one command may touch, computed from its tool by config
// (the roots of its path parameters, its working directory, what the tool
// file adds) and enforced by the runner in the kernel. The runner adds the
// system's own needs (the program, its interpreter and libraries, /usr,
// /lib*, /etc for locale, TLS and name service, /dev/null, /dev/zero,
// /dev/urandom, /proc); nothing else is reachable.
type Sandbox struct {
	// Read lists files and directories the command may read (and execute
	// from) below, besides the system's. Absolute, symlinks resolved.
	Read []string `json:"read,omitempty"`
	// Write lists files and directories the command may write below (and
	// read). Empty for a read-only tool. Absolute, symlinks resolved.
	Write []string `json:"write,omitempty"`
	// Network allows sockets: TCP, UDP and unix sockets to daemons. Without
	// it the command may make none but a socketpair.
	Network bool `json:"network,omitempty"`
}

// validate checks that every path is absolute and clean, so the rules the
// kernel gets name exactly the directories config computed.
func (s *Sandbox) validate() error {
	for _, set := range []struct {
		name  string
		paths []string
	}{{"read", s.Read}, {"write", s.Write}} {
		for _, p := range set.paths {
			if err := checkAbsPath("sandbox "+set.name+" path", p); err != nil {
				return err
			}
		}
	}
	return nil
}

// PathCheck is one path argument as it was resolved when the call was
// expanded and shown. Right before the program starts, Given is resolved
// again; if it no longer leads to Resolved (a symlink swapped in since
// approval), the command does not run.
type PathCheck struct {
	// Given is the absolute path before symlinks were resolved.
	Given string `json:"given"`
	// Resolved is what Given resolved to, as it appears in argv.
	Resolved string `json:"resolved"`
}

// Identity pins the program file that loaded, so a swapped binary or a
// retargeted symlink is noticed right before exec. IdentityOf records one.
type Identity struct {
	// Dev and Ino name the file.
	Dev uint64 `json:"dev"`
	Ino uint64 `json:"ino"`
	// Size, Mtime and Ctime change when the file is rewritten in place.
	Size  int64     `json:"size"`
	Mtime time.Time `json:"mtime"`
	Ctime time.Time `json:"ctime"`
	// SHA256 is the hash of the file's contents when it is under 64 MiB,
	// for the journal and `assent check`; it is not recomputed per call.
	SHA256 string `json:"sha256,omitempty"`
}

// IsZero reports whether i pins nothing, as for a command whose program
// was never recorded.
func (i Identity) IsZero() bool {
	return i.Dev == 0 && i.Ino == 0 && i.Size == 0 && i.Mtime.IsZero() && i.Ctime.IsZero()
}

// Same reports whether i and o describe the same, unchanged file. The hash
// is left out: one side may not have it, and a rewrite that kept the size
// still moves the change time.
func (i Identity) Same(o Identity) bool {
	return i.Dev == o.Dev && i.Ino == o.Ino && i.Size == o.Size &&
		i.Mtime.Equal(o.Mtime) && i.Ctime.Equal(o.Ctime)
}

// String describes the file for a message: inode, size and change time.
func (i Identity) String() string {
	return fmt.Sprintf("dev %d inode %d, %d bytes, changed %s", i.Dev, i.Ino, i.Size, i.Ctime.Format(time.RFC3339Nano))
}

// checkAbsPath refuses a path the runner could not use as it is: empty,
// relative, unclean or holding a NUL byte.
func checkAbsPath(what, p string) error {
	switch {
	case strings.IndexByte(p, 0) >= 0:
		return fmt.Errorf("%s %q contains a NUL byte", what, p)
	case !filepath.IsAbs(p):
		return fmt.Errorf("%s %q is not absolute", what, p)
	case filepath.Clean(p) != p:
		return fmt.Errorf("%s %q is not clean (it should read %q)", what, p, filepath.Clean(p))
	}
	return nil
}
