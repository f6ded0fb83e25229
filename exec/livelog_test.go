package exec

import (
	"bytes"
	"fmt"
	"sync"
)

// liveLog collects the chunks a run delivers live.
type liveLog struct {
	mu     sync.Mutex
	chunks []Chunk
}

// add is the callback handed to Run.
func (g *liveLog) add(c Chunk) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.chunks = append(g.chunks, c)
}

// len is how many chunks arrived.
func (g *liveLog) len() int {
	g.mu.Lock()
	defer g.mu.Unlock()
	return len(g.chunks)
}

// skipped is how many bytes of s the chunks say were left out.
func (g *liveLog) skipped(s Stream) int64 {
	g.mu.Lock()
	defer g.mu.Unlock()
	var n int64
	for _, c := range g.chunks {
		if c.Stream == s {
			n += c.Skipped
		}
	}
	return n
}

// matches checks the feed's promise for stream s against what the result
// kept: walking s's chunks in order, each Skipped advances over kept bytes
// and each Data equals the kept bytes at that point, ending exactly at the
// end of kept. Chunk times never go backwards.
func (g *liveLog) matches(s Stream, kept []byte) error {
	g.mu.Lock()
	defer g.mu.Unlock()
	var off int64
	for i, c := range g.chunks {
		if i > 0 && c.Time.Before(g.chunks[i-1].Time) {
			return fmt.Errorf("chunk %d is older than chunk %d", i, i-1)
		}
		if c.Stream != s {
			continue
		}
		if c.Skipped < 0 || off+c.Skipped+int64(len(c.Data)) > int64(len(kept)) {
			return fmt.Errorf("chunk %d (skipped %d, %d bytes) runs past the %d kept bytes at offset %d",
				i, c.Skipped, len(c.Data), len(kept), off)
		}
		off += c.Skipped
		if !bytes.Equal(c.Data, kept[off:off+int64(len(c.Data))]) {
			return fmt.Errorf("chunk %d differs from the kept bytes at offset %d", i, off)
		}
		off += int64(len(c.Data))
	}
	if off != int64(len(kept)) {
		return fmt.Errorf("chunks account for %d bytes, %d were kept", off, len(kept))
	}
	return nil
}
