package queue_test

import (
	"testing"
	"time"

	"github.com/assent-sh/assent/exec"
	"github.com/assent-sh/assent/queue"
)

func TestTail_KeepsTheNewestBytes(t *testing.T) {
	tl := queue.NewTail(10)
	now := time.Now()
	tl.Add(exec.Chunk{Stream: exec.Stdout, Data: []byte("abcdef"), Time: now})
	tl.Add(exec.Chunk{Stream: exec.Stdout, Data: []byte("ghi"), Time: now})
	tl.Add(exec.Chunk{Stream: exec.Stderr, Data: []byte("XYZ"), Time: now})
	chunks := tl.Chunks()
	if len(chunks) != 2 || string(chunks[0].Data) != "cdefghi" || chunks[0].Stream != exec.Stdout ||
		string(chunks[1].Data) != "XYZ" || chunks[1].Stream != exec.Stderr || tl.Len() != 10 {
		t.Fatalf("chunks %v (len %d), want stdout merged and trimmed to 10 bytes in all", chunks, tl.Len())
	}
	chunks[0].Data[0] = '!'
	if got := string(tl.Bytes()); got != "cdefghiXYZ" {
		t.Errorf("Bytes() = %q: a copy handed out changed the tail, or the order is wrong", got)
	}
	if tl.Len() != 0 || len(tl.Chunks()) != 0 {
		t.Error("Bytes did not empty the tail")
	}
	var zero queue.Tail
	zero.Add(exec.Chunk{Stream: exec.Stdout, Data: []byte("x")})
	if zero.Len() != 0 {
		t.Error("the zero Tail kept bytes")
	}
}
