//go:build linux

package exec

import (
	"errors"
	"strings"
	"sync"

	"golang.org/x/sys/unix"
)

// maxSpawners bounds the threads kept to carry sandboxes, one per distinct
// sandbox (in practice one per tool); past it, the one used least recently
// and idle is retired.
const maxSpawners = 64

// sandboxes is the sandbox machinery a Local keeps: what the kernel
// offers, found once, the shared empty network namespace, and one spawner
// per sandbox in use.
type sandboxes struct {
	l *Local

	probeOnce sync.Once
	abi       int    // Landlock ABI, 0 when none
	noABI     string // why there is none
	filter    []unix.SockFilter

	mu       sync.Mutex
	netnsFD  int // -1 when none is made (yet, or at all)
	netnsErr error
	spawners map[string]*spawner
	clock    uint64
}

// init records the runner the sandboxes belong to.
func (s *sandboxes) init(l *Local) {
	s.l = l
	s.netnsFD = -1
}

// probe finds out, once, what this kernel offers.
func (s *sandboxes) probe() {
	s.probeOnce.Do(func() {
		abi, err := landlockABI()
		switch {
		case s.l.opts.SimulateNoLandlock:
			s.noABI = "the kernel has no Landlock (simulated)"
		case err != nil:
			s.noABI = err.Error()
		default:
			s.abi = abi
		}
		s.filter = socketFilter()
	})
}

// close retires every spawner and lets the namespace go; runs started
// later build them again.
func (s *sandboxes) close() {
	s.mu.Lock()
	defer s.mu.Unlock()
	for k, sp := range s.spawners {
		sp.retire()
		delete(s.spawners, k)
	}
	if s.netnsFD >= 0 {
		unix.Close(s.netnsFD)
	}
	s.netnsFD, s.netnsErr = -1, nil
}

// confine decides how cmd is confined and fills pl with it: a spawner to
// fork it in its sandbox, and what the Result will say. It returns why the
// call may not run, when the mode requires a sandbox this system cannot
// give it.
func (l *Local) confine(pl *plan, cmd Command, prog *programFile) string {
	required := l.opts.Sandbox == SandboxRequired
	pl.conf.Network = NetworkUnconfined
	switch {
	case l.opts.Sandbox == SandboxOff:
		pl.conf.Unconfined = "the sandbox is off"
		return ""
	case cmd.Sandbox == nil:
		pl.conf.Unconfined = "the tool runs without a sandbox"
		if required {
			return "sandbox required, but the tool runs without one (sandbox: false)"
		}
		return ""
	case prog == nil:
		// Without the program open there is no rule for it; a start
		// could only fail, or run something that appeared meanwhile.
		_, why := explainStart(cmd, unix.ENOENT)
		return why
	}
	sp, err := l.os.sandbox.spawnerFor(cmd, prog)
	if err != nil {
		pl.conf.Unconfined = err.Error()
		if required {
			return "sandbox required, but it could not be applied: " + err.Error()
		}
		return ""
	}
	pl.conf.Landlock, pl.conf.Network, pl.conf.NetworkBy = sp.conf.Landlock, sp.conf.Network, sp.conf.NetworkBy
	pl.conf.Unconfined = sp.missing
	if required && sp.missing != "" {
		sp.release()
		return "sandbox required, but " + sp.missing
	}
	pl.spawner = sp
	return ""
}

// sandboxKey names what a spawner's thread is confined to: the program
// file, its interpreters, the sets and the network.
func sandboxKey(sb *Sandbox, prog *programFile) string {
	var b strings.Builder
	b.WriteString(prog.id.String())
	for _, p := range prog.interp {
		b.WriteString("\x00i" + p)
	}
	for _, p := range sb.Read {
		b.WriteString("\x00r" + p)
	}
	for _, p := range sb.Write {
		b.WriteString("\x00w" + p)
	}
	if sb.Network {
		b.WriteString("\x00network")
	}
	return b.String()
}

// spawnerFor returns the spawner for cmd's sandbox, holding a start on it,
// built (and its thread confined) on first use. One whose paths no longer
// name the directories its rules were made for (a root removed and made
// again) is replaced.
func (s *sandboxes) spawnerFor(cmd Command, prog *programFile) (*spawner, error) {
	s.probe()
	key := sandboxKey(cmd.Sandbox, prog)
	ids := pathIDs(cmd.Sandbox)
	s.mu.Lock()
	defer s.mu.Unlock()
	s.clock++
	if sp := s.spawners[key]; sp != nil {
		if sameIDs(sp.ids, ids) {
			sp.refs++
			sp.used = s.clock
			return sp, nil
		}
		sp.retire()
		delete(s.spawners, key)
	}
	sp, err := s.build(cmd, prog)
	if err != nil {
		return nil, err
	}
	sp.key, sp.ids, sp.refs, sp.used = key, ids, 1, s.clock
	if !s.makeRoom() {
		sp.retired = true // every kept one is busy: this one serves one start
		return sp, nil
	}
	if s.spawners == nil {
		s.spawners = make(map[string]*spawner)
	}
	s.spawners[key] = sp
	return sp, nil
}

// makeRoom retires the least recently used idle spawner when the limit is
// reached, and reports whether there is room. Called with mu held.
func (s *sandboxes) makeRoom() bool {
	if len(s.spawners) < maxSpawners {
		return true
	}
	var oldest *spawner
	for _, sp := range s.spawners {
		if sp.refs == 0 && (oldest == nil || sp.used < oldest.used) {
			oldest = sp
		}
	}
	if oldest == nil {
		return false
	}
	oldest.retire()
	delete(s.spawners, oldest.key)
	return true
}

// netns returns the shared empty network namespace, made on first use.
// Called with mu held.
func (s *sandboxes) netns() (int, error) {
	if s.netnsFD < 0 && s.netnsErr == nil {
		s.netnsFD, s.netnsErr = newEmptyNetns()
		if s.netnsErr != nil {
			s.netnsErr = errors.New("no network namespace: " + s.netnsErr.Error())
		}
	}
	return s.netnsFD, s.netnsErr
}
