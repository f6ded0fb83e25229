//go:build linux

package exec

import (
	"os"
	"runtime"
)

// Probe finds out what this machine lets the runner enforce: the Landlock
// ABI, whether a network namespace can be made and sockets filtered, and
// which containment runs get. It makes the shared network namespace and
// the subreaper as a first run would, so it is what runs will see; call it
// at startup, not per call.
func (l *Local) Probe() Support {
	s := &l.os.sandbox
	s.probe()
	sup := Support{OS: runtime.GOOS, Mode: l.opts.Sandbox, Landlock: s.abi, NoLandlock: s.noABI, Seccomp: s.filter != nil}
	if s.noSandbox == "" {
		s.mu.Lock()
		fd, _ := s.netns()
		s.mu.Unlock()
		sup.NetNamespace = fd >= 0
	}
	sup.DropsCapabilities = s.noRoot
	sup.Containment = l.containment()
	_, err := os.Stat("/proc/self/fd")
	sup.PinnedExec = err == nil
	return sup
}
