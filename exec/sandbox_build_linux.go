//go:build linux

package exec

import (
	"errors"
	"slices"
	"strings"
	"syscall"

	"golang.org/x/sys/unix"
)

// fileID names a file by device and inode; the zero value means it did
// not exist.
type fileID struct{ dev, ino uint64 }

// pathIDs names what each of a sandbox's paths leads to now.
func pathIDs(sb *Sandbox) []fileID {
	ids := make([]fileID, 0, len(sb.Read)+len(sb.Write))
	for _, p := range slices.Concat(sb.Read, sb.Write) {
		var st syscall.Stat_t
		if syscall.Stat(p, &st) == nil {
			ids = append(ids, fileID{st.Dev, st.Ino})
		} else {
			ids = append(ids, fileID{})
		}
	}
	return ids
}

// build makes the rules for cmd's sandbox: the Landlock ruleset (when the
// kernel has Landlock) and, when the command has no network, the socket
// filter or, where seccomp is not to be had, a descriptor of the empty
// network namespace. Called with mu held.
//
// The filter refuses every socket, which the namespace does not: a socket
// file of a local daemon stays reachable from inside an empty network
// namespace, and D-Bus alone (systemd-run) would let a program start
// another outside the sandbox. With the filter in force the namespace adds
// nothing, and it is left out: joining it costs some 25 µs per call, the
// filter some 90 µs, on this kind of busy 2-core machine, against 100 µs
// for the whole sandbox.
func (s *sandboxes) build(cmd Command, prog *programFile) (*sandboxRules, error) {
	sb := cmd.Sandbox
	sr := &sandboxRules{owner: s, landlock: -1, netns: -1}
	if s.abi > 0 {
		rs, err := s.ruleset(sb, prog)
		if err != nil {
			return nil, &rulesError{err}
		}
		sr.landlock = rs.fd
	}
	var netnsErr error
	if !sb.Network && s.fprog != nil {
		sr.filter = true
	} else if !sb.Network {
		var fd int
		if fd, netnsErr = s.netns(); netnsErr == nil {
			// Each sandbox keeps a descriptor of its own, so closing the
			// runner cannot pull it from under a child about to join.
			if sr.netns, netnsErr = unix.FcntlInt(uintptr(fd), unix.F_DUPFD_CLOEXEC, 3); netnsErr != nil {
				sr.netns = -1
			}
		}
	}
	if sr.landlock < 0 && sr.netns < 0 && !sr.filter {
		return nil, errors.New(s.noABI)
	}
	sr.conf, sr.missing = s.describe(sb, sr, netnsErr)
	return sr, nil
}

// rulesError is a Landlock ruleset that could not be made for a sandbox's
// sets, on a kernel that has Landlock: the call is refused, whatever the
// mode.
type rulesError struct{ err error }

func (e *rulesError) Error() string { return e.err.Error() }
func (e *rulesError) Unwrap() error { return e.err }

// ruleset makes the Landlock ruleset for sb: the system base, the program
// and its interpreters, the read set and the write set.
func (s *sandboxes) ruleset(sb *Sandbox, prog *programFile) (*ruleset, error) {
	rs, err := newRuleset(s.abi, !sb.Network)
	if err != nil {
		return nil, err
	}
	err = allowBase(rs)
	if err == nil {
		err = rs.allow(prog.fd, llExec|llRead)
	}
	for _, p := range prog.interp {
		if err == nil {
			err = allowPath(rs, p, llExec|llRead, true)
		}
	}
	for _, p := range sb.Read {
		if err == nil {
			err = allowPath(rs, p, readRights, false)
		}
	}
	for _, p := range sb.Write {
		if err == nil {
			err = allowPath(rs, p, writeRights, false)
		}
	}
	if err != nil {
		rs.close()
		return nil, err
	}
	return rs, nil
}

// describe says what sr confines, for the Result, and what of sb this
// system cannot apply.
func (s *sandboxes) describe(sb *Sandbox, sr *sandboxRules, netnsErr error) (Confinement, string) {
	var c Confinement
	var missing []string
	landlock, netns := sr.landlock >= 0, sr.netns >= 0
	if landlock {
		c.Landlock = s.abi
	} else {
		missing = append(missing, s.noABI+": the filesystem is not confined")
	}
	if sb.Network {
		c.Network = NetworkAllowed
		return c, strings.Join(missing, "; ")
	}
	if netns {
		c.NetworkBy = append(c.NetworkBy, "namespace")
	}
	if sr.filter {
		c.NetworkBy = append(c.NetworkBy, "seccomp")
	}
	if landlock && s.abi >= 4 {
		c.NetworkBy = append(c.NetworkBy, "landlock")
	}
	switch {
	case sr.filter:
		c.Network = NetworkDenied
	case netns:
		c.Network = NetworkDenied
		missing = append(missing, "unix sockets of local daemons stay reachable (no seccomp here)")
	case landlock && s.abi >= 4:
		c.Network = NetworkTCPDenied
		missing = append(missing, "only TCP is denied: UDP and MPTCP are open (no network namespace or seccomp here)")
	default:
		c.Network = NetworkUnconfined
		missing = append(missing, "the network is not confined")
	}
	if !netns && netnsErr != nil && len(missing) > 0 {
		missing = append(missing, netnsErr.Error())
	}
	return c, strings.Join(missing, "; ")
}
