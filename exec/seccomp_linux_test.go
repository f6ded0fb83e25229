//go:build linux

package exec

import (
	"encoding/binary"
	"testing"

	"golang.org/x/sys/unix"
)

// runBPF runs a classic BPF program as seccomp would on a system call of
// architecture arch and number nr, and returns what it returns. It knows
// the instructions socketFilter uses and fails t on any other, on a jump
// out of the program and on a program that ends without returning.
func runBPF(t *testing.T, prog []unix.SockFilter, arch, nr uint32) uint32 {
	t.Helper()
	var data [64]byte // struct seccomp_data; the arguments stay zero
	binary.NativeEndian.PutUint32(data[seccompNr:], nr)
	binary.NativeEndian.PutUint32(data[seccompAudit:], arch)
	var a uint32
	for pc := 0; pc < len(prog); pc++ {
		in := prog[pc]
		jump := func(cond bool) {
			if cond {
				pc += int(in.Jt)
			} else {
				pc += int(in.Jf)
			}
		}
		switch in.Code {
		case unix.BPF_LD | unix.BPF_W | unix.BPF_ABS:
			if in.K%4 != 0 || int(in.K)+4 > len(data) {
				t.Fatalf("instruction %d loads from offset %d", pc, in.K)
			}
			a = binary.NativeEndian.Uint32(data[in.K:])
		case unix.BPF_JMP | unix.BPF_JEQ | unix.BPF_K:
			jump(a == in.K)
		case unix.BPF_JMP | unix.BPF_JGE | unix.BPF_K:
			jump(a >= in.K)
		case unix.BPF_JMP | unix.BPF_JSET | unix.BPF_K:
			jump(a&in.K != 0)
		case unix.BPF_RET | unix.BPF_K:
			return in.K
		default:
			t.Fatalf("instruction %d: opcode %#x is not one the test knows", pc, in.Code)
		}
	}
	t.Fatalf("the program ends without returning (arch %#x, nr %d)", arch, nr)
	return 0
}

func TestSocketFilter_Decides(t *testing.T) {
	prog := socketFilter()
	if prog == nil {
		t.Skip("no socket filter on this architecture")
	}
	native, _ := seccompNative()
	const (
		allow = unix.SECCOMP_RET_ALLOW
		deny  = unix.SECCOMP_RET_ERRNO | uint32(unix.EACCES)
		kill  = unix.SECCOMP_RET_KILL_PROCESS
	)
	tests := []struct {
		name string
		arch uint32
		nr   uint32
		x32  bool // only where the native ABI has x32 beside it
		want uint32
	}{
		{name: "socket", arch: native.audit, nr: unix.SYS_SOCKET, want: deny},
		{name: "io_uring_setup", arch: native.audit, nr: unix.SYS_IO_URING_SETUP, want: deny},
		{name: "socketpair", arch: native.audit, nr: unix.SYS_SOCKETPAIR, want: allow},
		{name: "getpid", arch: native.audit, nr: unix.SYS_GETPID, want: allow},
		{name: "connect", arch: native.audit, nr: unix.SYS_CONNECT, want: allow}, // it has no socket to connect
		// Another ABI reaches socket by other numbers (socketcall on
		// 32-bit x86): its first call ends the program, whatever it is.
		{name: "32-bit x86 getpid", arch: unix.AUDIT_ARCH_I386, nr: 20, want: kill},
		{name: "32-bit x86 socketcall", arch: unix.AUDIT_ARCH_I386, nr: 102, want: kill},
		{name: "32-bit ARM socket", arch: unix.AUDIT_ARCH_ARM, nr: 281, want: kill},
		{name: "x32 getpid", arch: native.audit, nr: x32Bit | unix.SYS_GETPID, x32: true, want: kill},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if tt.x32 && !native.x32 {
				t.Skip("no x32 here")
			}
			if got := runBPF(t, prog, tt.arch, tt.nr); got != tt.want {
				t.Errorf("the filter returns %#x, want %#x", got, tt.want)
			}
		})
	}
}
