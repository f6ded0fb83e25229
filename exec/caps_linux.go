//go:build linux

package exec

import (
	"golang.org/x/sys/unix"
)

// keptCapabilities are the capabilities a sandboxed program run as root
// may still have: those that act on files and processes the sandbox
// already fences in (ownership, permission bits, signals to its own
// processes, changing user). Every other one is taken from the bounding
// set, because each lets root step around the sandbox: loading a kernel
// module, reading /proc/kcore or raw I/O ports, bpf, mounting, rebooting,
// raw sockets, setting the clock.
const keptCapabilities = 1<<unix.CAP_CHOWN | 1<<unix.CAP_DAC_OVERRIDE | 1<<unix.CAP_DAC_READ_SEARCH |
	1<<unix.CAP_FOWNER | 1<<unix.CAP_FSETID | 1<<unix.CAP_KILL | 1<<unix.CAP_SETGID | 1<<unix.CAP_SETUID |
	1<<unix.CAP_NET_BIND_SERVICE

// dropCapabilities takes every capability but the kept ones from the
// calling thread's bounding set, so a program it starts gets none of them,
// even as root. The bounding set is per thread; assent's other threads keep
// theirs. It reports whether the set was changed: a process without
// CAP_SETPCAP may not change it, and has nothing to drop that
// no_new_privs does not already keep from a program.
func dropCapabilities() bool {
	dropped := false
	for c := 0; c <= unix.CAP_LAST_CAP+8; c++ {
		if uint64(keptCapabilities)&(uint64(1)<<c) != 0 {
			continue
		}
		switch err := unix.Prctl(unix.PR_CAPBSET_DROP, uintptr(c), 0, 0, 0); err {
		case nil:
			dropped = true
		case unix.EPERM:
			return dropped
		case unix.EINVAL:
			return dropped // past the last capability this kernel knows
		}
	}
	return dropped
}
