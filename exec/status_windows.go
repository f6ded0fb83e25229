//go:build windows

package exec

import "os"

// exitStatus returns the child's exit code. Windows processes are not ended
// by signals, so there is never a signal name.
func exitStatus(ps *os.ProcessState) (code int, signal string) {
	return ps.ExitCode(), ""
}
