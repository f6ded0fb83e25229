//go:build linux

package exec

import "golang.org/x/sys/unix"

// seccompArch is what the socket filter needs of one system call ABI the
// kernel runs programs with.
type seccompArch struct {
	audit uint32   // the AUDIT_ARCH_ value seccomp reports for it
	deny  []uint32 // the system calls to refuse, by number in this ABI
	x32   bool     // refuse the x32 ABI's calls, which share the audit value
}

// Offsets in struct seccomp_data.
const (
	seccompNr    = 0
	seccompAudit = 4
	x32Bit       = 0x40000000
)

// socketFilter returns the seccomp program that refuses, with EACCES, the
// creation of any socket (socketpair stays: its two ends reach nothing
// outside the sandbox), and io_uring, whose socket operations no system
// call filter sees. Each ABI the kernel runs programs with on this
// architecture is covered, the 32-bit ones included, since a 32-bit
// program reaches the same network by other call numbers. It returns nil
// where the runner knows no ABI table.
func socketFilter() []unix.SockFilter {
	arches := seccompArches()
	if len(arches) == 0 {
		return nil
	}
	stmt := func(code uint16, k uint32) unix.SockFilter { return unix.SockFilter{Code: code, K: k} }
	var prog []unix.SockFilter
	var toDeny []int // jumps whose true branch goes to the refusal
	prog = append(prog, stmt(unix.BPF_LD|unix.BPF_W|unix.BPF_ABS, seccompAudit))
	for _, a := range arches {
		n := 2 + len(a.deny) // load nr, the checks, allow
		if a.x32 {
			n++
		}
		// Not this ABI: skip its block, with the arch still loaded.
		prog = append(prog, unix.SockFilter{Code: unix.BPF_JMP | unix.BPF_JEQ | unix.BPF_K, K: a.audit, Jf: uint8(n)})
		prog = append(prog, stmt(unix.BPF_LD|unix.BPF_W|unix.BPF_ABS, seccompNr))
		if a.x32 {
			toDeny = append(toDeny, len(prog))
			prog = append(prog, unix.SockFilter{Code: unix.BPF_JMP | unix.BPF_JGE | unix.BPF_K, K: x32Bit})
		}
		for _, nr := range a.deny {
			toDeny = append(toDeny, len(prog))
			prog = append(prog, unix.SockFilter{Code: unix.BPF_JMP | unix.BPF_JEQ | unix.BPF_K, K: nr})
		}
		prog = append(prog, stmt(unix.BPF_RET|unix.BPF_K, unix.SECCOMP_RET_ALLOW))
	}
	prog = append(prog, stmt(unix.BPF_RET|unix.BPF_K, unix.SECCOMP_RET_ALLOW)) // an ABI this kernel cannot run
	deny := len(prog)
	prog = append(prog, stmt(unix.BPF_RET|unix.BPF_K, unix.SECCOMP_RET_ERRNO|uint32(unix.EACCES)))
	for _, i := range toDeny {
		prog[i].Jt = uint8(deny - i - 1)
	}
	return prog
}
