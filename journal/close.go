package journal

import (
	"errors"
	"fmt"
)

// Close ends the segment: calls the queue left unended are marked
// Interrupted, a closing seal is written and synced, the head file names it
// and the lock file goes. It returns the journal's failure if it had one; a
// failed journal's segment is left for the next Open to recover. Closing
// twice is harmless.
func (j *Journal) Close() error {
	j.mu.Lock()
	if j.closed {
		j.mu.Unlock()
		return nil
	}
	j.closed = true
	if j.err == nil {
		if err := j.closeSegment(); err != nil {
			j.failOn(err)
		}
	}
	j.mu.Unlock()
	close(j.stop)
	<-j.done
	j.syncOnce()
	err := j.Err()
	for _, f := range append(j.w.retired, openFile{j.w.f, j.w.path()}) {
		if cerr := f.f.Close(); cerr != nil && err == nil {
			err = fmt.Errorf("close journal %s: %w", f.path, cerr)
		}
	}
	if j.Err() == nil {
		j.lock.release()
	} else {
		j.lock.drop()
	}
	return err
}

// closeSegment writes the segment's last records. The caller holds j.mu.
func (j *Journal) closeSegment() error {
	for _, c := range j.w.open.list() {
		r := Record{Call: c.Call, Event: Interrupted, Reason: interruptedReason(c.State, "closed")}
		if err := j.w.append(&r); err != nil {
			return err
		}
	}
	return j.w.seal(Closed)
}

// failOn fails the journal when err is the file's fault, and returns the
// error to give the caller. The caller holds j.mu.
func (j *Journal) failOn(err error) error {
	var fe *fileError
	if errors.As(err, &fe) {
		return j.fail(fe)
	}
	return err
}

// fail puts the journal in its failed state, once, and wakes every Wait.
// The caller holds j.mu. Nothing retries: a disk that failed a write or a
// sync may have lost what it said it had, and records after a hole would
// describe calls whose earlier steps are gone.
func (j *Journal) fail(fe *fileError) error {
	if j.err == nil {
		j.err = fmt.Errorf("%w: %w", ErrFailed, fe)
		close(j.round)
		j.round = make(chan struct{})
	}
	return j.err
}
