//go:build !linux

package exec

import (
	"os"
	"sync/atomic"
	"time"
)

// streams is how a run reads its child's output here: a goroutine per
// stream, each draining one pipe.
type streams struct {
	pipes [2]*os.File // read ends, closed by finishReading
}

// startReaders starts one goroutine per output stream, reading the pipes'
// read ends into the captures, and closes r.drained when both have
// reached EOF.
func (r *run) startReaders(outR, errR *os.File, out func(Chunk)) {
	r.io.pipes = [2]*os.File{outR, errR}
	r.newCaptures(out)
	var left atomic.Int32
	left.Store(2)
	for i, cp := range []*capture{r.stdout, r.stderr} {
		go func() {
			cp.drain(r.io.pipes[i])
			if left.Add(-1) == 0 {
				close(r.drained)
			}
		}()
	}
}

// drain reads r until EOF or any error; a read deadline set by the runner
// ends it early when processes outside the group hold the pipe open. It is
// the only writer of c's fields, and the runner reads them only after drain
// has returned.
func (c *capture) drain(r *os.File) {
	var rb readBuffer
	for {
		buf := rb.get()
		n, err := r.Read(buf)
		if n > 0 {
			c.add(buf[:n])
		}
		if err != nil {
			return
		}
		if rb.filled(n) {
			growPipe(r)
		}
	}
}

// finishReading waits for both readers to reach EOF. Once the group is dead
// only processes that left it can hold the pipes, and they get WaitDelay;
// then the reads are cut off so the call cannot be held open by them.
func (r *run) finishReading() {
	t := time.NewTimer(r.l.opts.WaitDelay)
	defer t.Stop()
	select {
	case <-r.drained:
	case <-t.C:
		for _, p := range r.io.pipes {
			if p.SetReadDeadline(time.Now()) != nil {
				p.Close() // not pollable: closing is the only way to end the read
			}
		}
		<-r.drained
	}
	for _, p := range r.io.pipes {
		p.Close()
	}
}
