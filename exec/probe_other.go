//go:build !linux

package exec

// Probe reports what this machine lets the runner enforce: here, only the
// process group; every command runs unconfined.
func (l *Local) Probe() Support {
	return Support{Mode: l.opts.Sandbox, NoLandlock: noSandboxHere, Containment: ContainGroup}
}
