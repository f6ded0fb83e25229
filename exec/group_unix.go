//go:build unix && !linux

package exec

import (
	"os"
	osexec "os/exec"
	"syscall"
)

// ownGroup makes the child the leader of a new process group, so every
// process it starts can be signalled at once, a Ctrl-C meant for the
// console never reaches it, and its kill(0, ...) never reaches the console.
//
// With newSession the child also gets a session of its own, and so no
// controlling terminal: a program that opens /dev/tty to prompt (ssh, git
// credential helpers, pagers) fails at once instead of stopping on SIGTTIN
// or drawing over the console, where its text would bypass every escape
// the console applies to output. It is optional because a new session
// costs the kernel a scheduling group where autogroup is on (see
// Options.NewSession).
func ownGroup(c *osexec.Cmd, newSession bool) {
	c.SysProcAttr = &syscall.SysProcAttr{Setpgid: !newSession, Setsid: newSession}
}

// terminateGroup asks every process in the leader's group to end. SIGCONT
// follows because a stopped process keeps SIGTERM pending until it runs
// again; without it a stopped child (one that read the terminal from the
// background, say) would sit out the whole grace period.
func terminateGroup(p *os.Process) {
	_ = syscall.Kill(-p.Pid, syscall.SIGTERM)
	_ = syscall.Kill(-p.Pid, syscall.SIGCONT)
}

// killGroup ends every process in the leader's group. The runner calls it
// only while the leader is not yet reaped (on Linux), so the group id cannot
// have been reused by an unrelated process. An error means the group is
// already gone.
func killGroup(p *os.Process) {
	_ = syscall.Kill(-p.Pid, syscall.SIGKILL)
}
