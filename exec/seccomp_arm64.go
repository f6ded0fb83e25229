//go:build linux && arm64

package exec

import "golang.org/x/sys/unix"

// seccompArches lists the ABIs an arm64 kernel runs: AArch64 and the
// 32-bit ARM one.
func seccompArches() []seccompArch {
	return []seccompArch{
		{audit: unix.AUDIT_ARCH_AARCH64, deny: []uint32{198, 425}},  // socket, io_uring_setup
		{audit: unix.AUDIT_ARCH_ARM, deny: []uint32{102, 281, 425}}, // socketcall, socket, io_uring_setup
	}
}
