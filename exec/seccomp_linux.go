//go:build linux

package exec

import "golang.org/x/sys/unix"

// seccompABI is what the socket filter needs of this architecture's
// native system call ABI.
type seccompABI struct {
	audit uint32   // the AUDIT_ARCH_ value seccomp reports for it
	deny  []uint32 // the system calls to refuse, by number
	x32   bool     // the x32 ABI shares the audit value: kill its calls
}

// Offsets in struct seccomp_data.
const (
	seccompNr    = 0
	seccompAudit = 4
	x32Bit       = 0x40000000
)

// socketFilter returns the seccomp program that refuses, with EACCES, the
// creation of any socket (socketpair stays: its two ends reach nothing
// outside the sandbox) and io_uring, whose socket operations no system call
// filter sees. A program of another ABI than the native one (32-bit x86 or
// ARM, x32), which reaches the network by other call numbers, is killed at
// its first system call: the filter stays short, because the kernel works
// a short filter into its per-call cache faster, and that work is most of
// what installing it costs each call. It returns nil where the runner
// knows no ABI table.
func socketFilter() []unix.SockFilter {
	abi, ok := seccompNative()
	if !ok {
		return nil
	}
	var prog []unix.SockFilter
	emit := func(code uint16, k uint32) int {
		prog = append(prog, unix.SockFilter{Code: code, K: k})
		return len(prog) - 1
	}
	const load, jeq, jge, ret = unix.BPF_LD | unix.BPF_W | unix.BPF_ABS, unix.BPF_JMP | unix.BPF_JEQ | unix.BPF_K,
		unix.BPF_JMP | unix.BPF_JGE | unix.BPF_K, unix.BPF_RET | unix.BPF_K
	var toDeny, toKill []int // jumps whose true branch goes there
	emit(load, seccompAudit)
	native := emit(jeq, abi.audit) // its false branch: kill
	emit(load, seccompNr)
	if abi.x32 {
		toKill = append(toKill, emit(jge, x32Bit))
	}
	for _, nr := range abi.deny {
		toDeny = append(toDeny, emit(jeq, nr))
	}
	emit(ret, unix.SECCOMP_RET_ALLOW)
	deny := emit(ret, unix.SECCOMP_RET_ERRNO|uint32(unix.EACCES))
	kill := emit(ret, unix.SECCOMP_RET_KILL_PROCESS)
	prog[native].Jf = uint8(kill - native - 1)
	for _, i := range toKill {
		prog[i].Jt = uint8(kill - i - 1)
	}
	for _, i := range toDeny {
		prog[i].Jt = uint8(deny - i - 1)
	}
	return prog
}
