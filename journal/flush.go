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
// and a record is on disk within the window plus two fsyncs. It also seals
// what waited SealInterval for a seal. It is the only caller of syncOnce
// while the journal is open.
func (j *Journal) flush() {
	defer close(j.done)
	seals := time.NewTicker(j.opts.SealInterval)
	defer seals.Stop()
	for {
		select {
		case <-j.stop:
			return
		case <-seals.C:
			j.sealIfDue()
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

// sealIfDue seals records that have waited a whole interval for a seal.
func (j *Journal) sealIfDue() {
	j.mu.Lock()
	defer j.mu.Unlock()
	if j.err != nil || j.closed || j.w.unsealed == 0 {
		return
	}
	if err := j.w.seal(Sealed); err != nil {
		j.failOn(err)
	}
}

// syncOnce fsyncs everything written so far (files rotated away first, then
// closed), wakes the waiters of this round, and then points the head file at
// the latest seal it covered. The lock is not held across the fsyncs, so
// appends go on meanwhile.
func (j *Journal) syncOnce() {
	j.mu.Lock()
	if j.err != nil || j.synced >= j.w.seq {
		j.mu.Unlock()
		return
	}
	target, round, f, path, retired := j.w.seq, j.round, j.w.f, j.w.path(), j.w.retired
	j.w.retired = nil
	var head *headFile
	if s := j.w.sealed; s != nil && s.Seq > j.headWritten {
		copied := *s
		head = &copied
	}
	j.mu.Unlock()

	fe := syncFiles(retired, f, path)

	j.mu.Lock()
	defer j.mu.Unlock()
	if fe != nil {
		j.fail(fe)
		return
	}
	if target > j.synced {
		j.synced = target
	}
	if j.round == round {
		close(round)
		j.round = make(chan struct{})
	}
	if head == nil {
		return
	}
	// The head is written only now that the seal it names is on disk: a
	// head ahead of the files must mean records were cut, never a crash.
	if err := writeHead(j.dir, *head, j.w.key); err != nil {
		j.fail(&fileError{"write head", inDir(j.dir, headName(head.Segment)), err})
		return
	}
	j.headWritten = head.Seq
}

// syncFiles syncs and closes the rotated files, then syncs the current one.
// Every rotated file is closed, whatever failed.
func syncFiles(retired []openFile, f File, path string) *fileError {
	var first *fileError
	for _, old := range retired {
		if err := old.f.Sync(); err != nil && first == nil {
			first = &fileError{"sync", old.path, err}
		}
		if err := old.f.Close(); err != nil && first == nil {
			first = &fileError{"close", old.path, err}
		}
	}
	if first != nil {
		return first
	}
	if err := syncData(f); err != nil {
		return &fileError{"sync", path, err}
	}
	return nil
}

// Wait blocks until the record with the given seq is on disk, the journal
// fails, or ctx ends. With SyncAlways it returns at once: Append waited.
// The queue calls it where losing a record to a power cut would matter more
// than a few milliseconds, such as before starting a process.
func (j *Journal) Wait(ctx context.Context, seq int64) error {
	for {
		j.mu.Lock()
		err, synced, written, round := j.err, j.synced, j.w.seq, j.round
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
