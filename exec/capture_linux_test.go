//go:build linux

package exec

import (
	"bytes"
	"os"
	"syscall"
	"testing"
)

func TestCapture_GrowsThePipeOnlyForAFlood(t *testing.T) {
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
			r, w, err := newPipe()
			if err != nil {
				t.Fatal(err)
			}
			defer r.Close()
			before := pipeSize(t, r)
			src := bytes.Repeat([]byte("z"), tt.size)
			go func() {
				w.Write(src)
				w.Close()
			}()
			c := newCapture(Stdout, 1<<20, nil, nil)
			c.drain(r)
			if out := c.output(); out.Bytes != int64(tt.size) {
				t.Errorf("counted %d bytes, want %d", out.Bytes, tt.size)
			}
			want := before
			if tt.grown {
				want = readSize
			}
			if size := pipeSize(t, r); size != want {
				t.Errorf("pipe holds %d bytes, want %d", size, want)
			}
		})
	}
}

// pipeSize asks the kernel how much pipe f holds.
func pipeSize(t *testing.T, f *os.File) int {
	t.Helper()
	rc, err := f.SyscallConn()
	if err != nil {
		t.Fatal(err)
	}
	var size int
	var errno syscall.Errno
	_ = rc.Control(func(fd uintptr) {
		var n uintptr
		n, _, errno = syscall.Syscall(syscall.SYS_FCNTL, fd, syscall.F_GETPIPE_SZ, 0)
		size = int(n)
	})
	if errno != 0 {
		t.Fatalf("F_GETPIPE_SZ: %v", errno)
	}
	return size
}
