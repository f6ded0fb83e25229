package queue

import (
	"time"

	"github.com/assent-sh/assent/exec"
)

// Tail keeps the newest bytes of a call's output, as chunks by stream: the
// queue keeps one per call for late subscribers, and a front end keeps one
// for what it has not passed on yet. Consecutive output of one stream is
// merged into chunks of a few KiB, and the oldest bytes go first once the
// tail holds more than its limit. The zero value keeps nothing; NewTail
// sets the limit.
type Tail struct {
	limit int
	parts []exec.Chunk
	size  int
}

// mergeChunk is the size up to which output of one stream is merged.
const mergeChunk = 4096

// NewTail returns a tail that keeps up to limit bytes.
func NewTail(limit int) Tail { return Tail{limit: limit} }

// Add appends a copy of the chunk's bytes, dropping the oldest over the
// limit.
func (t *Tail) Add(c exec.Chunk) {
	data := append([]byte(nil), c.Data...)
	if len(t.parts) > 0 {
		last := &t.parts[len(t.parts)-1]
		if last.Stream == c.Stream && len(last.Data) < mergeChunk {
			last.Data = append(last.Data, data...)
			last.Time = c.Time
			t.size += len(data)
			t.trim()
			return
		}
	}
	t.parts = append(t.parts, exec.Chunk{Stream: c.Stream, Data: data, Time: c.Time})
	t.size += len(data)
	t.trim()
}

// keep fills the tail from a finished run's output, for a call whose
// output was not watched live: stdout, then stderr.
func (t *Tail) keep(res exec.Result) {
	for _, o := range []struct {
		s exec.Stream
		d []byte
	}{{exec.Stdout, res.Stdout.Data}, {exec.Stderr, res.Stderr.Data}} {
		if len(o.d) > t.limit {
			o.d = o.d[len(o.d)-t.limit:]
		}
		if len(o.d) > 0 {
			t.Add(exec.Chunk{Stream: o.s, Data: o.d, Time: time.Now()})
		}
	}
}

func (t *Tail) trim() {
	for t.size > t.limit && len(t.parts) > 0 {
		first := &t.parts[0]
		over := t.size - t.limit
		if over >= len(first.Data) {
			t.size -= len(first.Data)
			t.parts = t.parts[1:]
			continue
		}
		first.Data = first.Data[over:]
		t.size -= over
	}
}

// Len is how many bytes the tail holds.
func (t *Tail) Len() int { return t.size }

// Chunks returns a copy of what the tail holds, oldest first.
func (t *Tail) Chunks() []exec.Chunk {
	out := make([]exec.Chunk, len(t.parts))
	for i, c := range t.parts {
		out[i] = exec.Chunk{Stream: c.Stream, Data: append([]byte(nil), c.Data...), Time: c.Time}
	}
	return out
}

// Bytes returns what the tail holds, the streams interleaved as they came,
// and empties it.
func (t *Tail) Bytes() []byte {
	out := make([]byte, 0, t.size)
	for _, c := range t.parts {
		out = append(out, c.Data...)
	}
	t.parts, t.size = t.parts[:0], 0
	return out
}
