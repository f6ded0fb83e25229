package exec

import (
	"bytes"
	"testing"
	"time"
)

func TestFeed_SlowReceiverNeverBlocksPush(t *testing.T) {
	release := make(chan struct{})
	var live liveLog
	f := newFeed(func(c Chunk) {
		<-release // a receiver stuck until the whole stream has been pushed
		live.add(c)
	}, time.Millisecond)
	src := bytes.Repeat([]byte("0123456789abcdef"), 8<<20/16) // 8 backlogs' worth
	pushed := make(chan struct{})
	go func() {
		defer close(pushed)
		for p := src; len(p) > 0; p = p[min(len(p), 64<<10):] {
			f.push(Stdout, p[:min(len(p), 64<<10)])
		}
	}()
	select {
	case <-pushed:
	case <-time.After(10 * time.Second):
		t.Fatal("push blocked behind a stuck receiver")
	}
	close(release)
	f.close()
	if err := live.matches(Stdout, src); err != nil {
		t.Error(err)
	}
	if live.skipped(Stdout) == 0 {
		t.Error("nothing was skipped, though the receiver was stuck for 8 backlogs' worth")
	}
}

func TestFeed_CoalescesInOrder(t *testing.T) {
	// 4000 one-byte pushes, switching stream every 10.
	var live liveLog
	f := newFeed(live.add, time.Hour) // only flushBytes and close deliver
	var want struct{ out, err []byte }
	var order []Stream
	for i := range 4000 {
		s, b := Stdout, byte('a'+i%26)
		if (i/10)%2 == 1 {
			s = Stderr
		}
		f.push(s, []byte{b})
		if s == Stdout {
			want.out = append(want.out, b)
		} else {
			want.err = append(want.err, b)
		}
		if len(order) == 0 || order[len(order)-1] != s {
			order = append(order, s)
		}
	}
	f.close()
	if err := live.matches(Stdout, want.out); err != nil {
		t.Errorf("stdout: %v", err)
	}
	if err := live.matches(Stderr, want.err); err != nil {
		t.Errorf("stderr: %v", err)
	}
	if n := live.len(); n != len(order) {
		t.Errorf("%d chunks for %d runs of one stream, want one chunk per run", n, len(order))
	}
	for i, c := range live.chunks {
		if c.Stream != order[i] {
			t.Fatalf("chunk %d is %v, want %v: streams out of order", i, c.Stream, order[i])
		}
	}
}
