package exec

import (
	"sync"
	"time"
)

// Live output limits. flushBytes hands output over before the interval when
// this much has gathered. backlog is the most the feed holds for a receiver
// that has fallen behind: several reads' worth, so a receiver that keeps up
// does not lose bytes to a burst that arrives before the delivery goroutine
// is scheduled, and small against what a run may keep anyway.
const (
	flushBytes = 32 << 10
	backlog    = 1 << 20
)

// feed carries live output from the pipe readers to the caller's callback.
//
// The readers must never wait for the callback: a receiver that stalls
// (a slow terminal, a blocked network write) would otherwise stop the reads,
// fill the pipe and freeze the child. So the readers only append to a
// bounded backlog under a mutex held for a copy, and one delivery goroutine
// swaps the backlog out and calls the callback with no lock held. When the
// backlog is full, bytes are skipped rather than waited for, and the next
// chunk of that stream says how many; they are still in the Result. Appends
// to the same stream merge, and delivery happens once per interval (or when
// flushBytes have gathered), so a child writing a byte at a time costs one
// callback per interval.
type feed struct {
	out      func(Chunk)
	interval time.Duration

	mu      sync.Mutex
	pending []Chunk
	size    int
	skipped [3]int64 // by Stream

	ready    chan struct{} // something is pending
	full     chan struct{} // flushBytes are pending
	closing  chan struct{} // the readers are done
	finished chan struct{} // the delivery goroutine has returned
}

// newFeed starts the delivery goroutine; close must be called to end it.
func newFeed(out func(Chunk), interval time.Duration) *feed {
	f := &feed{
		out:      out,
		interval: interval,
		ready:    make(chan struct{}, 1),
		full:     make(chan struct{}, 1),
		closing:  make(chan struct{}),
		finished: make(chan struct{}),
	}
	go f.deliver()
	return f
}

// push queues a copy of p. It never blocks on the receiver. The time is
// taken under the lock so chunk times follow chunk order.
func (f *feed) push(s Stream, p []byte) {
	f.mu.Lock()
	take := min(len(p), backlog-f.size)
	if take > 0 {
		if n := len(f.pending); n > 0 && f.pending[n-1].Stream == s && f.skipped[s] == 0 {
			f.pending[n-1].Data = append(f.pending[n-1].Data, p[:take]...)
		} else {
			data := append(make([]byte, 0, max(take, 4096)), p[:take]...)
			f.pending = append(f.pending, Chunk{Stream: s, Data: data, Time: time.Now(), Skipped: f.skipped[s]})
			f.skipped[s] = 0
		}
		f.size += take
	}
	f.skipped[s] += int64(len(p) - take)
	size := f.size
	f.mu.Unlock()
	wake(f.ready)
	if size >= flushBytes {
		wake(f.full)
	}
}

// wake wakes the delivery goroutine without ever blocking the caller.
func wake(ch chan struct{}) {
	select {
	case ch <- struct{}{}:
	default:
	}
}

// deliver waits for output, lets it gather for one interval (or until
// flushBytes are pending), and hands it over, until close.
func (f *feed) deliver() {
	defer close(f.finished)
	t := time.NewTimer(f.interval)
	defer t.Stop()
	for {
		select {
		case <-f.ready:
		case <-f.closing:
			f.flush(true)
			return
		}
		t.Reset(f.interval)
		select {
		case <-t.C:
		case <-f.full:
		case <-f.closing:
			f.flush(true)
			return
		}
		f.flush(false)
	}
}

// flush hands everything pending to the callback. The last flush also
// reports bytes skipped after the last chunk, so the chunks of a stream
// always account for all of its kept bytes.
func (f *feed) flush(last bool) {
	f.mu.Lock()
	batch := f.pending
	f.pending, f.size = nil, 0
	if last {
		for _, s := range []Stream{Stdout, Stderr} {
			if f.skipped[s] > 0 {
				batch = append(batch, Chunk{Stream: s, Time: time.Now(), Skipped: f.skipped[s]})
				f.skipped[s] = 0
			}
		}
	}
	f.mu.Unlock()
	for _, c := range batch {
		f.out(c)
	}
}

// close delivers what is left and waits for the last callback to return,
// so nothing is delivered after Run returns. Called once the readers are done.
func (f *feed) close() {
	close(f.closing)
	<-f.finished
}
