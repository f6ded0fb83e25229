// The raw clone3 the runner's fork path calls; see fork_linux.go.

#include "textflag.h"

// func rawClone3(args, size uintptr) (pid, errno uintptr)
//
// As syscall.rawVforkSyscall: with CLONE_VM|CLONE_VFORK the child runs on
// this very stack until it execs, so the return address is kept in R12
// (which the kernel preserves for both) rather than in its stack slot,
// which the child may overwrite; the results are written only after the
// parent is resumed.
TEXT ·rawClone3(SB),NOSPLIT|NOFRAME,$0-32
	MOVQ	args+0(FP), DI
	MOVQ	size+8(FP), SI
	MOVQ	$0, DX
	MOVQ	$0, R10
	MOVQ	$0, R8
	MOVQ	$0, R9
	MOVQ	$435, AX	// SYS_clone3
	POPQ	R12
	SYSCALL
	PUSHQ	R12
	CMPQ	AX, $0xfffffffffffff001
	JLS	ok
	MOVQ	$-1, pid+16(FP)
	NEGQ	AX
	MOVQ	AX, errno+24(FP)
	RET
ok:
	MOVQ	AX, pid+16(FP)
	MOVQ	$0, errno+24(FP)
	RET
