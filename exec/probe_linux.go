//go:build linux

package exec

// Probe finds out what this machine lets the runner enforce: the Landlock
// ABI, whether sockets can be filtered or else a network namespace made,
// whether root's capabilities are dropped, and which containment runs
// get. It makes what a first run would (the shared network namespace,
// where runs join one, and the subreaper), so it is what runs will see;
// call it at startup, not per call.
func (l *Local) Probe() Support {
	s := &l.os.sandbox
	s.probe()
	sup := Support{Mode: l.opts.Sandbox, Landlock: s.abi, NoLandlock: s.noABI, Seccomp: s.filter != nil, DropsCapabilities: s.noRoot}
	if s.noSandbox == "" && s.fprog == nil {
		// Where the filter holds, runs never join the namespace.
		s.mu.Lock()
		fd, _ := s.netns()
		s.mu.Unlock()
		sup.NetNamespace = fd >= 0
	}
	sup.Containment = l.containment()
	return sup
}
