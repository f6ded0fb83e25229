//go:build windows

package exec

import (
	"os"
	osexec "os/exec"
	"syscall"
)

// ownGroup starts the child in a new process group, so console control
// events meant for the server do not reach it; newSession has no Windows
// meaning. Windows has no signal that reaches a whole group; ending
// grandchildren would need a job object, which this runner does not use yet.
func ownGroup(c *osexec.Cmd, _ bool) {
	c.SysProcAttr = &syscall.SysProcAttr{CreationFlags: syscall.CREATE_NEW_PROCESS_GROUP}
}

// terminateGroup ends the child. Windows has no SIGTERM to ask politely
// with, so the grace period is skipped in effect.
func terminateGroup(p *os.Process) {
	_ = p.Kill()
}

// killGroup ends the child.
func killGroup(p *os.Process) {
	_ = p.Kill()
}
