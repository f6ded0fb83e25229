//go:build linux && amd64

package exec

import "golang.org/x/sys/unix"

// seccompArches lists the ABIs an amd64 kernel runs: x86-64, with x32
// refused outright (no distribution ships x32 programs), and i386, which
// reaches sockets through socketcall too.
func seccompArches() []seccompArch {
	return []seccompArch{
		{audit: unix.AUDIT_ARCH_X86_64, deny: []uint32{41, 425}, x32: true}, // socket, io_uring_setup
		{audit: unix.AUDIT_ARCH_I386, deny: []uint32{102, 359, 425}},        // socketcall, socket, io_uring_setup
	}
}
