//go:build linux

package exec

import (
	"bytes"
	"syscall"
	"testing"
)

func TestPump_GrowsThePipeOnlyForAFlood(t *testing.T) {
	tests := []struct {
		name  string
		size  int
		grown bool
	}{
		{name: "a few bytes leave the pipe as it was", size: 100},
		{name: "a flood gets the large pipe", size: 4 << 20, grown: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := &run{l: NewLocal(Options{}), drained: make(chan struct{})}
			r.newCaptures(nil)
			outR, outW, err := newPipe()
			if err != nil {
				t.Fatal(err)
			}
			errR, errW, err := newPipe()
			if err != nil {
				t.Fatal(err)
			}
			syscall.Close(errW)
			r.io = streams{fds: [2]int{outR, errR}, pidfd: -1, exited: true}
			before := pipeSize(t, outR)
			src := bytes.Repeat([]byte("z"), tt.size)
			go func() { writeAll(outW, src) }()
			for r.stdout.total < int64(tt.size) {
				r.pump(-1)
			}
			want := before
			if tt.grown {
				want = readSize
			}
			if size := pipeSize(t, outR); size != want {
				t.Errorf("pipe holds %d bytes, want %d", size, want)
			}
			syscall.Close(outW)
			r.finishReading()
			if out := r.stdout.output(); out.Bytes != int64(tt.size) {
				t.Errorf("counted %d bytes, want %d", out.Bytes, tt.size)
			}
			select {
			case <-r.drained:
			default:
				t.Error("both streams are closed but drained is not")
			}
		})
	}
}

// writeAll writes p to fd, ignoring a reader that has gone.
func writeAll(fd int, p []byte) {
	for len(p) > 0 {
		n, err := syscall.Write(fd, p)
		if err != nil {
			return
		}
		p = p[n:]
	}
}

// pipeSize asks the kernel how much pipe fd holds.
func pipeSize(t *testing.T, fd int) int {
	t.Helper()
	n, _, errno := syscall.Syscall(syscall.SYS_FCNTL, uintptr(fd), syscall.F_GETPIPE_SZ, 0)
	if errno != 0 {
		t.Fatalf("F_GETPIPE_SZ: %v", errno)
	}
	return int(n)
}

func TestAppendCapped_SmallOutputSmallBufferAndNeverPastTheCap(t *testing.T) {
	// A line of output is kept in a small buffer, not a page per stream;
	// growth doubles, but never past the cap.
	b := appendCapped(nil, []byte("hello\n"), 1<<20)
	if string(b) != "hello\n" || cap(b) > minCapture {
		t.Fatalf("kept %q in a buffer of %d bytes, want at most %d", b, cap(b), minCapture)
	}
	const limit = 10000
	want := []byte("hello\n")
	for i := 0; len(b) < limit; i++ {
		// As capture.add does: never more than the room under the cap.
		chunk := bytes.Repeat([]byte{byte('a' + i%26)}, min(700, limit-len(b)))
		b = appendCapped(b, chunk, limit)
		want = append(want, chunk...)
		if cap(b) > limit {
			t.Fatalf("capacity %d past the cap %d", cap(b), limit)
		}
	}
	if !bytes.Equal(b, want) {
		t.Fatal("the kept bytes are not what was appended")
	}
}
