//go:build !linux

package exec

import "runtime"

// Probe reports what this machine lets the runner enforce: here, only the
// process group; every command runs unconfined.
func (l *Local) Probe() Support {
	return Support{OS: runtime.GOOS, Mode: l.opts.Sandbox, NoLandlock: noSandboxHere, Containment: ContainGroup}
}
