//go:build linux && amd64

package exec

import "golang.org/x/sys/unix"

// seccompNative is x86-64: socket, io_uring_setup; x32 is killed.
func seccompNative() (seccompABI, bool) {
	return seccompABI{audit: unix.AUDIT_ARCH_X86_64, deny: []uint32{unix.SYS_SOCKET, unix.SYS_IO_URING_SETUP}, x32: true}, true
}
