//go:build linux && arm64

package exec

import "golang.org/x/sys/unix"

// seccompNative is AArch64: socket, io_uring_setup.
func seccompNative() (seccompABI, bool) {
	return seccompABI{audit: unix.AUDIT_ARCH_AARCH64, deny: []uint32{unix.SYS_SOCKET, unix.SYS_IO_URING_SETUP}}, true
}
