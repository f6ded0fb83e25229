package journal

import (
	"context"
	"fmt"
	"time"
)

// flush is the group-commit loop. After a record is written it waits up to
// the sync window for more (or less, when someone is waiting), then one
// fsync covers them all; records written during that fsync wait for the
// next. So at most one fsync is in flight, a burst of records shares one,
// and a record is on disk within the window plus two fsyncs.
func (j *Journal) flush() {
	defer close(j.done)
	for {
		select {
		case <-j.stop:
			return
		case <-j.urge:
		case <-j.kick:
			window := time.NewTimer(j.opts.SyncWindow)
			select {
			case <-window.C:
			case <-j.urge:
				window.Stop()
			case <-j.stop:
				window.Stop()
				return
			}
		}
		j.syncOnce()
	}
}

// syncOnce fsyncs everything written so far and wakes the waiters of this
// round. The lock is not held across the fsync, so appends go on meanwhile.
func (j *Journal) syncOnce() {
	j.mu.Lock()
	if j.err != nil || j.synced >= j.seq {
		j.mu.Unlock()
		return
	}
	target, round := j.seq, j.round
	j.mu.Unlock()

	err := j.f.Sync()

	j.mu.Lock()
	defer j.mu.Unlock()
	if err != nil {
		j.fail("sync", err)
		return
	}
	if target > j.synced {
		j.synced = target
	}
	if j.round == round {
		close(round)
		j.round = make(chan struct{})
	}
}

// Wait blocks until the record with the given seq is on disk, the journal
// fails, or ctx ends. With SyncAlways it returns at once: Append waited.
// The queue calls it where losing a record to a power cut would matter more
// than a few milliseconds, such as before starting a process.
func (j *Journal) Wait(ctx context.Context, seq int64) error {
	for {
		j.mu.Lock()
		err, synced, written, round := j.err, j.synced, j.seq, j.round
		j.mu.Unlock()
		switch {
		case err != nil:
			return err
		case seq <= synced:
			return nil
		case seq > written:
			return fmt.Errorf("journal record %d has not been written (last is %d)", seq, written)
		}
		poke(j.urge)
		select {
		case <-round:
		case <-ctx.Done():
			return ctx.Err()
		}
	}
}

// poke signals c without blocking: one pending signal is enough.
func poke(c chan struct{}) {
	select {
	case c <- struct{}{}:
	default:
	}
}
