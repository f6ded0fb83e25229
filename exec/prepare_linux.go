//go:build linux

package exec

import "golang.org/x/sys/unix"

// prepare decides how cmd starts and checks that it may: its path arguments
// still resolve as they did when it was shown, its program is still the file
// that loaded, and its sandbox can be applied as the mode requires. It
// returns the plan, and why the call may not run if it may not; a refused
// plan holds nothing.
func (l *Local) prepare(cmd Command) (*plan, string) {
	pl := &plan{prog: -1}
	pl.conf.Containment = l.containment()
	if pl.conf.Containment == ContainPIDNamespace {
		pl.cloneflags = unix.CLONE_NEWPID
	}
	if why := l.checkPaths(cmd); why != "" {
		return pl, why
	}
	pinned := !cmd.Program.IsZero()
	sandboxed := cmd.Sandbox != nil && l.opts.Sandbox != SandboxOff
	var prog *programFile
	if pinned || sandboxed {
		// A program that cannot be opened is left to the start, which
		// says why it cannot run.
		if p, err := openProgram(cmd.Path); err == nil {
			prog, pl.prog = p, p.fd
			l.os.programs.interpreters(p)
		}
	}
	if pinned && prog != nil {
		if !prog.id.Same(cmd.Program) {
			pl.release()
			return pl, programChanged(cmd.Path)
		}
		// The kernel runs the file behind the descriptor, whatever the path
		// names by now. A script cannot be run so: its interpreter opens
		// the path it is given, and the descriptor is closed by then; a
		// script is run by its path, and its interpreter reads it by path
		// anyway, a race no way of starting it closes.
		pl.execFD = len(prog.interp) == 0
	}
	if why := l.confine(pl, cmd, prog); why != "" {
		pl.release()
		return pl, why
	}
	return pl, ""
}
