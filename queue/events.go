package queue

import (
	"sync"

	"github.com/assent-sh/assent/exec"
)

// EventKind names a change in a call's life.
type EventKind string

const (
	// EventPending: a call waits for an operator.
	EventPending EventKind = "pending"
	// EventDecided: a call was settled without running yet: approved,
	// denied, refused or withdrawn. A pending call settled by anything
	// but an operator's action here (timeout, client cancel, shutdown, a
	// second console) arrives this way too: the console closes its dialog
	// when it sees one for the call it shows.
	EventDecided EventKind = "decided"
	// EventStarted: the call's process started.
	EventStarted EventKind = "started"
	// EventOutput: the running call wrote output.
	EventOutput EventKind = "output"
	// EventFinished: the call's process ended; Call.Result says how.
	EventFinished EventKind = "finished"
)

// Event is one change, in the order the queue made them. Lifecycle events
// carry a snapshot of the call after the change. Output events carry the
// bytes of one stream; for a slow subscriber, consecutive output of the
// same call and stream is merged, and past a bound the oldest output is
// dropped and counted in Skipped. Lifecycle events are never dropped.
type Event struct {
	Kind EventKind
	Call Call
	// Output is set for EventOutput.
	Output *exec.Chunk
	// Skipped counts output bytes of this call dropped for this
	// subscriber since its previous event for the call; the call's next
	// event after a drop, output or not, carries the count.
	Skipped int64
}

// Snapshot is the queue's state at one moment: every call it holds, oldest
// first, and the tail of each call's output.
type Snapshot struct {
	Calls  []Call
	Output map[ID][]exec.Chunk
}

// Counts returns how many calls are pending, running and ended.
func (s Snapshot) Counts() (pending, running, ended int) {
	for _, c := range s.Calls {
		switch {
		case c.Status == Pending:
			pending++
		case c.Status == Running || c.Status == Approved:
			running++
		case c.Status.Ended():
			ended++
		}
	}
	return
}

// maxMergedOutput bounds one merged output event, and maxQueuedOutput the
// output a subscriber may have waiting before the oldest is dropped.
const (
	maxMergedOutput = 64 << 10
	maxQueuedOutput = 4 << 20
)

// Subscription delivers a snapshot and then every later event. A slow
// reader never blocks the queue: events wait in the subscription, output
// merged and bounded as Event describes.
type Subscription struct {
	snap   Snapshot
	out    chan Event
	wake   chan struct{}
	done   chan struct{}
	closed sync.Once
	q      *Queue
	exited chan struct{}

	mu         sync.Mutex
	buf        []Event
	queuedOut  int
	skippedOut map[ID]int64
}

// Subscribe returns a subscription whose snapshot and events together miss
// nothing and repeat nothing. Close it when done.
func (q *Queue) Subscribe() *Subscription {
	s := &Subscription{
		out:        make(chan Event),
		wake:       make(chan struct{}, 1),
		done:       make(chan struct{}),
		exited:     make(chan struct{}),
		q:          q,
		skippedOut: map[ID]int64{},
	}
	q.mu.Lock()
	s.snap = q.snapshotLocked()
	q.subs[s] = struct{}{}
	q.mu.Unlock()
	go s.pump()
	return s
}

// Snapshot returns the state the subscription started from.
func (s *Subscription) Snapshot() Snapshot { return s.snap }

// Events returns the channel of events after the snapshot. It is closed
// after Close.
func (s *Subscription) Events() <-chan Event { return s.out }

// Close ends the subscription and waits for its goroutine to exit.
func (s *Subscription) Close() {
	s.closed.Do(func() {
		s.q.mu.Lock()
		delete(s.q.subs, s)
		s.q.mu.Unlock()
		close(s.done)
	})
	<-s.exited
}

// Snapshot returns the queue's current state.
func (q *Queue) Snapshot() Snapshot {
	q.mu.Lock()
	defer q.mu.Unlock()
	return q.snapshotLocked()
}

func (q *Queue) snapshotLocked() Snapshot {
	s := Snapshot{Calls: make([]Call, 0, len(q.order)), Output: map[ID][]exec.Chunk{}}
	for _, id := range q.order {
		e := q.calls[id]
		s.Calls = append(s.Calls, e.call.clone())
		if chunks := e.tail.Chunks(); len(chunks) > 0 {
			s.Output[id] = chunks
		}
	}
	return s
}

// publishLocked hands an event to every subscriber without blocking.
func (q *Queue) publishLocked(ev Event) {
	for s := range q.subs {
		s.push(ev)
	}
}

func (s *Subscription) push(ev Event) {
	s.mu.Lock()
	if ev.Kind == EventOutput {
		s.pushOutput(ev)
	} else {
		s.buf = append(s.buf, ev)
	}
	s.mu.Unlock()
	select {
	case s.wake <- struct{}{}:
	default:
	}
}

// pushOutput merges output into the last waiting event of the same call
// and stream, and drops the oldest waiting output past the bound.
func (s *Subscription) pushOutput(ev Event) {
	n := len(ev.Output.Data)
	if last := len(s.buf) - 1; last >= 0 {
		prev := &s.buf[last]
		if prev.Kind == EventOutput && prev.Call.ID == ev.Call.ID && prev.Output.Stream == ev.Output.Stream &&
			len(prev.Output.Data)+n <= maxMergedOutput {
			prev.Output.Data = append(prev.Output.Data, ev.Output.Data...)
			prev.Output.Time = ev.Output.Time
			s.queuedOut += n
			s.trimOutput()
			return
		}
	}
	data := append([]byte(nil), ev.Output.Data...)
	ev.Output = &exec.Chunk{Stream: ev.Output.Stream, Data: data, Time: ev.Output.Time}
	s.buf = append(s.buf, ev)
	s.queuedOut += n
	s.trimOutput()
}

func (s *Subscription) trimOutput() {
	for i := 0; s.queuedOut > maxQueuedOutput && i < len(s.buf); {
		if s.buf[i].Kind != EventOutput {
			i++
			continue
		}
		dropped := s.buf[i]
		s.queuedOut -= len(dropped.Output.Data)
		s.skippedOut[dropped.Call.ID] += int64(len(dropped.Output.Data))
		s.buf = append(s.buf[:i], s.buf[i+1:]...)
	}
}

// pump moves waiting events to the channel, one at a time.
func (s *Subscription) pump() {
	defer close(s.exited)
	defer close(s.out)
	for {
		s.mu.Lock()
		if len(s.buf) == 0 {
			s.mu.Unlock()
			select {
			case <-s.wake:
				continue
			case <-s.done:
				return
			}
		}
		ev := s.buf[0]
		s.buf[0] = Event{}
		s.buf = s.buf[1:]
		if ev.Kind == EventOutput {
			s.queuedOut -= len(ev.Output.Data)
		}
		if n := s.skippedOut[ev.Call.ID]; n > 0 {
			ev.Skipped = n
			delete(s.skippedOut, ev.Call.ID)
		}
		s.mu.Unlock()
		select {
		case s.out <- ev:
		case <-s.done:
			return
		}
	}
}
