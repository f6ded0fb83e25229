//go:build linux

package exec

import (
	"errors"
	"slices"
	"strings"
	"syscall"
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

// sameIDs reports whether two pathIDs results agree.
func sameIDs(a, b []fileID) bool { return slices.Equal(a, b) }

// build makes the spawner for cmd's sandbox: the Landlock rules (when the
// kernel has Landlock), and a thread that joins the empty network
// namespace, installs the socket filter and drops capabilities (when the
// command has no network), and confines itself. Called with mu held.
func (s *sandboxes) build(cmd Command, prog *programFile) (*spawner, error) {
	sb := cmd.Sandbox
	denyNet := !sb.Network
	var rs *ruleset
	if s.abi > 0 {
		var err error
		if rs, err = s.rules(sb, prog); err != nil {
			return nil, err
		}
		defer rs.close() // the thread keeps the domain; the fd may go
	}
	netnsFD := -1
	var netnsErr error
	if denyNet {
		netnsFD, netnsErr = s.netns()
	}
	var filter = s.filter
	if !denyNet {
		filter = nil
	}
	if rs == nil && netnsFD < 0 && filter == nil {
		return nil, errors.New(s.noABI)
	}
	confine := func() (threadParts, error) {
		var p threadParts
		if netnsFD >= 0 {
			p.netns = joinNetns(netnsFD) == nil
		}
		p.caps = dropCapabilities()
		if err := noNewPrivs(); err != nil {
			return p, err
		}
		if filter != nil {
			if err := installFilter(filter); err != nil {
				return p, err
			}
			p.seccomp = true
		}
		if rs != nil {
			if err := restrictThread(rs); err != nil {
				return p, err
			}
			p.landlock = true
		}
		return p, nil
	}
	sp := &spawner{owner: s, reqs: make(chan *spawnReq)}
	ready := make(chan threadResult)
	go sp.run(sp.reqs, confine, ready)
	res := <-ready
	if res.err != nil {
		return nil, res.err
	}
	sp.conf, sp.missing = s.describe(sb, res.parts, netnsErr)
	return sp, nil
}

// rules makes the Landlock ruleset for sb: the system base, the program
// and its interpreters, the read set and the write set.
func (s *sandboxes) rules(sb *Sandbox, prog *programFile) (*ruleset, error) {
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

// describe says what a thread that applied parts confines, for the
// Result, and what of sb it could not apply.
func (s *sandboxes) describe(sb *Sandbox, parts threadParts, netnsErr error) (Confinement, string) {
	var c Confinement
	var missing []string
	if parts.landlock {
		c.Landlock = s.abi
	} else {
		missing = append(missing, s.noABI+": the filesystem is not confined")
	}
	switch {
	case sb.Network:
		c.Network = NetworkAllowed
	default:
		if parts.netns {
			c.NetworkBy = append(c.NetworkBy, "namespace")
		}
		if parts.seccomp {
			c.NetworkBy = append(c.NetworkBy, "seccomp")
		}
		if parts.landlock && s.abi >= 4 {
			c.NetworkBy = append(c.NetworkBy, "landlock")
		}
		switch {
		case parts.netns || parts.seccomp:
			c.Network = NetworkDenied
		case parts.landlock && s.abi >= 4:
			c.Network = NetworkTCPDenied
			missing = append(missing, "only TCP is denied: UDP and MPTCP are open (no network namespace or seccomp here)")
		default:
			c.Network = NetworkUnconfined
			missing = append(missing, "the network is not confined")
		}
		if !parts.netns && netnsErr != nil && len(missing) > 0 {
			missing = append(missing, netnsErr.Error())
		}
	}
	return c, strings.Join(missing, "; ")
}
