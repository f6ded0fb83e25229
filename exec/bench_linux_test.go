//go:build linux

package exec

import (
	"os"
	"syscall"
	"testing"

	"golang.org/x/sys/unix"

	"github.com/assent-sh/assent/bench/pair"
)

// BenchmarkRunFloor measures the floor under BenchmarkRun: the runner's
// own fork of /bin/true and a wait on its pidfd, and nothing else, with
// /dev/null for every stream ("devnull") or with the two pipes a run reads
// ("pipes"), each against a bare os/exec run; and the whole runner against
// the floor with pipes ("runner"). What the runner adds to a spawn beyond
// reading its output is the last ratio.
func BenchmarkRunFloor(b *testing.B) {
	l := NewLocal(Options{})
	b.Cleanup(func() { l.Close() })
	null, err := l.os.devnull()
	if err != nil {
		b.Fatal(err)
	}
	floor := func(pipes bool) func() {
		return func() {
			var fds [4]int // stdout read, write; stderr read, write
			files := [3]int{null, null, null}
			if pipes {
				fds[0], fds[1], _ = newPipe()
				fds[2], fds[3], _ = newPipe()
				files[1], files[2] = fds[1], fds[3]
			}
			ln := &launch{setup: setup{execFD: -1, files: files, netns: -1, rules: -1},
				path: "/bin/true", argv: []string{"true"}, envp: l.os.baseEnvp}
			pid, pidfd, _, err := rawStart(ln, nil)
			if err != nil {
				b.Fatal(err)
			}
			wait := []unix.PollFd{{Fd: int32(pidfd), Events: unix.POLLIN}, {Fd: int32(fds[0]), Events: unix.POLLIN}, {Fd: int32(fds[2]), Events: unix.POLLIN}}
			if !pipes {
				wait = wait[:1]
			}
			_, _ = unix.Poll(wait, -1)
			var ws syscall.WaitStatus
			_, _ = syscall.Wait4(pid, &ws, 0, nil)
			unix.Close(pidfd)
			if pipes {
				closeAll(fds[1:2])
				closeAll(fds[3:])
				_, _ = unix.Poll(wait[1:], -1)
				closeAll([]int{fds[0], fds[2]})
			}
		}
	}
	bare := bareTrue(b, l)
	b.Run("devnull", func(b *testing.B) { pair.Compare(b, "floor", floor(false), "bare", bare) })
	b.Run("pipes", func(b *testing.B) { pair.Compare(b, "floor", floor(true), "bare", bare) })
	b.Run("runner", func(b *testing.B) {
		pair.Compare(b, "runner", runOK(b, l, Command{Path: "/bin/true", Argv: []string{"true"}}), "floor", floor(true))
	})
}

// BenchmarkRunManyFiles is BenchmarkRun with 4 000 more descriptors open,
// about what assent holds with a thousand calls in flight over HTTP (a
// connection, two pipes and a pidfd each), opened after the runner was
// made, as they are in assent. os/exec's child copies them all at clone
// and closes them at exec; the runner's takes the few it needs (see
// stage).
func BenchmarkRunManyFiles(b *testing.B) {
	l := NewLocal(Options{})
	b.Cleanup(func() { l.Close() })
	for range 4000 {
		f, err := os.Open(os.DevNull)
		if err != nil {
			b.Fatal(err)
		}
		b.Cleanup(func() { f.Close() })
	}
	pair.Compare(b, "runner", runOK(b, l, Command{Path: "/bin/true", Argv: []string{"true"}}), "bare", bareTrue(b, l))
}
