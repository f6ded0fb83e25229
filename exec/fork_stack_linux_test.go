//go:build linux && (amd64 || arm64)

package exec

import (
	"runtime"
	"syscall"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// growStack uses some 200 bytes of stack a level, and returns once it has
// gone n levels deep: the goroutine keeps the stack it grew, mostly unused,
// which is what a collection shrinks.
//
//go:noinline
func growStack(n int) int {
	var pad [160]byte
	pad[n%len(pad)] = byte(n)
	if n == 0 {
		return int(pad[0])
	}
	return growStack(n-1) + int(pad[n%len(pad)])
}

// TestRawStart_PidfdSurvivesAStackMove checks that the kernel writes a
// child's pidfd where the runner reads it even when the goroutine's stack
// moved while the start waited for syscall.ForkLock, which every os/exec
// fork takes: clone3 is given the address as a plain number, which no
// stack move updates. Worked out before the wait, it pointed into the
// freed stack: the start reported no pidfd, the descriptor leaked, and the
// kernel wrote four bytes into memory no longer the goroutine's.
func TestRawStart_PidfdSurvivesAStackMove(t *testing.T) {
	l := NewLocal(Options{})
	t.Cleanup(func() { l.Close() })
	if !l.rawFork() {
		t.Skip("no runner's own fork here")
	}
	null, err := l.os.devnull()
	if err != nil {
		t.Fatal(err)
	}
	type started struct {
		pid, pidfd int
		err        error
	}
	done := make(chan started)
	syscall.ForkLock.Lock() // as an os/exec fork holds it
	locked := true
	t.Cleanup(func() {
		if locked {
			syscall.ForkLock.Unlock()
		}
	})
	go func() {
		growStack(3000)
		ln := &launch{setup: setup{execFD: -1, files: [3]int{null, null, null}, netns: -1, rules: -1},
			path: "/bin/true", argv: []string{"true"}, envp: l.os.baseEnvp}
		pid, pidfd, _, err := rawStart(ln, nil)
		done <- started{pid, pidfd, err}
	}()
	time.Sleep(100 * time.Millisecond) // the start waits for the lock
	runtime.GC()                       // each collection halves a stack mostly unused
	runtime.GC()
	syscall.ForkLock.Unlock()
	locked = false
	got := <-done
	if got.err != nil {
		t.Fatal(got.err)
	}
	reapChild(got.pid)
	if got.pidfd < 0 {
		t.Fatal("the start reported no pidfd: the kernel wrote it where the stack was")
	}
	var st unix.Stat_t
	if err := unix.Fstat(got.pidfd, &st); err != nil {
		t.Errorf("the pidfd %d the start reported is not open: %v", got.pidfd, err)
	}
	unix.Close(got.pidfd)
}
