// The raw clone3 the runner's fork path calls; see fork_linux.go.

#include "textflag.h"

// func rawClone3(args, size uintptr) (pid, errno uintptr)
//
// As syscall.rawVforkSyscall: a leaf, so its return address stays in LR,
// which the kernel preserves for both parent and child; the results are
// written only after the parent is resumed.
TEXT ·rawClone3(SB),NOSPLIT,$0-32
	MOVD	args+0(FP), R0
	MOVD	size+8(FP), R1
	MOVD	$0, R2
	MOVD	$0, R3
	MOVD	$0, R4
	MOVD	$0, R5
	MOVD	$435, R8	// SYS_clone3
	SVC
	CMN	$4095, R0
	BCC	ok
	MOVD	$-1, R4
	MOVD	R4, pid+16(FP)
	NEG	R0, R0
	MOVD	R0, errno+24(FP)
	RET
ok:
	MOVD	R0, pid+16(FP)
	MOVD	ZR, errno+24(FP)
	RET
