//go:build linux

package exec

import (
	"errors"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"

	"golang.org/x/sys/unix"
)

// maxRules bounds the sandboxes kept built, one per distinct sandbox (in
// practice one per tool); past it, the one used least recently and idle is
// retired.
const maxRules = 256

// sandboxes is the sandbox machinery a Local keeps: what the kernel
// offers, found once, the shared empty network namespace, and the rules of
// each sandbox in use.
type sandboxes struct {
	l *Local

	probeOnce sync.Once
	noSandbox string // why no part of a sandbox can reach a child here; empty when some can
	abi       int    // Landlock ABI, 0 when none
	noABI     string // why there is none
	filter    []unix.SockFilter
	fprog     *unix.SockFprog // the filter as prctl takes it, nil when none
	noRoot    bool            // this process may keep root's capabilities from a child

	mu       sync.Mutex
	netnsFD  int // -1 when none is made (yet, or at all)
	netnsErr error
	rules    map[string]*sandboxRules
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
		case s.l.simulate.noLandlock:
			s.noABI = "the kernel has no Landlock (simulated)"
		case err != nil:
			s.noABI = err.Error()
		default:
			s.abi = abi
		}
		switch {
		case !s.l.rawFork():
			s.noSandbox = "the runner cannot start a confined child here (it needs clone3, Linux 5.5, on amd64 or arm64)"
			s.abi, s.noABI = 0, s.noSandbox
		default:
			if s.filter = socketFilter(); s.filter != nil {
				s.fprog = &unix.SockFprog{Len: uint16(len(s.filter)), Filter: &s.filter[0]}
				if !s.l.os.filterWorks(s.fprog) {
					s.filter, s.fprog = nil, nil
				}
			}
			eff, err := statusMask(os.Getpid(), "CapEff")
			s.noRoot = err == nil && eff&(1<<unix.CAP_SETPCAP) != 0
		}
	})
}

// close retires every sandbox and lets the namespace go; runs started
// later build them again.
func (s *sandboxes) close() {
	s.mu.Lock()
	defer s.mu.Unlock()
	for k, sr := range s.rules {
		sr.retire()
		delete(s.rules, k)
	}
	if s.netnsFD >= 0 {
		unix.Close(s.netnsFD)
	}
	s.netnsFD, s.netnsErr = -1, nil
}

// confine decides how cmd is confined and fills pl with it: the rules the
// child applies to itself, and what the Result will say. It returns why the
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
	sr, err := l.os.sandbox.rulesFor(cmd, prog)
	var broken *rulesError
	if errors.As(err, &broken) {
		// The kernel confines, but not to these sets: running unconfined
		// instead would let whoever swapped a root for a symlink turn the
		// sandbox off.
		return "the sandbox could not be built: " + broken.Error()
	}
	if err != nil {
		pl.conf.Unconfined = err.Error()
		if required {
			return "sandbox required, but it could not be applied: " + err.Error()
		}
		return ""
	}
	pl.conf.Landlock, pl.conf.Network, pl.conf.NetworkBy = sr.conf.Landlock, sr.conf.Network, sr.conf.NetworkBy
	pl.conf.Unconfined = sr.missing
	if required && sr.missing != "" {
		sr.release()
		return "sandbox required, but " + sr.missing
	}
	pl.rules = sr
	return ""
}

// sandboxKey names a sandbox: the program file, its interpreters, the
// sets and the network.
func sandboxKey(sb *Sandbox, prog *programFile) string {
	var b strings.Builder
	id := prog.id
	for _, n := range []uint64{id.Dev, id.Ino, uint64(id.Size), uint64(id.Mtime.UnixNano()), uint64(id.Ctime.UnixNano())} {
		b.WriteString(strconv.FormatUint(n, 16))
		b.WriteByte(':')
	}
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

// rulesFor returns the rules of cmd's sandbox, holding them for one start,
// built on first use. Rules whose paths no longer name the directories
// they were made for (a root removed and made again) are replaced.
func (s *sandboxes) rulesFor(cmd Command, prog *programFile) (*sandboxRules, error) {
	s.probe()
	if s.noSandbox != "" {
		// A child started without the runner's own fork applies nothing
		// to itself: built rules (the namespace, say) would only make its
		// start fail.
		return nil, errors.New(s.noSandbox)
	}
	key := sandboxKey(cmd.Sandbox, prog)
	ids := pathIDs(cmd.Sandbox)
	s.mu.Lock()
	defer s.mu.Unlock()
	s.clock++
	if sr := s.rules[key]; sr != nil {
		if slices.Equal(sr.ids, ids) {
			sr.refs++
			sr.used = s.clock
			return sr, nil
		}
		sr.retire()
		delete(s.rules, key)
	}
	sr, err := s.build(cmd, prog)
	if err != nil {
		return nil, err
	}
	sr.key, sr.ids, sr.refs, sr.used = key, ids, 1, s.clock
	if !s.makeRoom() {
		sr.retired = true // every kept one is in use: these serve one start
		return sr, nil
	}
	if s.rules == nil {
		s.rules = make(map[string]*sandboxRules)
	}
	s.rules[key] = sr
	return sr, nil
}

// makeRoom retires the least recently used idle rules when the limit is
// reached, and reports whether there is room. Called with mu held.
func (s *sandboxes) makeRoom() bool {
	if len(s.rules) < maxRules {
		return true
	}
	var oldest *sandboxRules
	for _, sr := range s.rules {
		if sr.refs == 0 && (oldest == nil || sr.used < oldest.used) {
			oldest = sr
		}
	}
	if oldest == nil {
		return false
	}
	oldest.retire()
	delete(s.rules, oldest.key)
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
