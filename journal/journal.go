package journal

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"time"
)

// ErrFailed is wrapped by every error of a journal that could not write or
// sync: errors.Is(err, ErrFailed) tells the queue to refuse new calls.
var ErrFailed = errors.New("journal failed")

// ErrClosed is returned by Append after Close.
var ErrClosed = errors.New("journal is closed")

// Journal appends records to one file. It is safe for concurrent use; seq
// order is the order in which Append calls took the lock.
type Journal struct {
	path     string
	opts     Options
	keys     keyring
	recovery Recovery

	mu     sync.Mutex
	f      File
	enc    *lineEncoder
	seq    int64         // last seq written
	prev   string        // hash of the last record written
	synced int64         // last seq known to be on disk
	round  chan struct{} // closed when the next sync attempt ends
	err    error         // the first write or sync failure; sticky
	closed bool

	kick chan struct{} // a record awaits sync
	urge chan struct{} // someone waits for a sync: skip the window
	stop chan struct{}
	done chan struct{}
}

// Open opens the journal at path for appending, creating it (0600, in a
// directory created 0700) if needed. It takes an exclusive lock on the file,
// so two processes never interleave their chains, and recovers it: a torn
// last line is cut, calls left unfinished are marked Interrupted and the
// chain is verified; Recovery says what was found. A file whose first line is
// not a journal record is refused rather than appended to.
func Open(path string, opts Options) (*Journal, error) {
	opts, err := opts.resolve(path)
	if err != nil {
		return nil, err
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return nil, fmt.Errorf("journal directory: %w", err)
	}
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE|os.O_APPEND, 0o600)
	if err != nil {
		return nil, fmt.Errorf("open journal: %w", err)
	}
	if err := lockFile(f, path); err != nil {
		f.Close()
		return nil, err
	}
	found, err := scanForRecovery(f, path)
	if err != nil {
		f.Close()
		return nil, err
	}
	j := &Journal{
		path:  path,
		opts:  opts,
		keys:  keyring{path: opts.KeyPath},
		f:     f,
		enc:   newLineEncoder(),
		seq:   found.chain.seq,
		prev:  found.chain.prev,
		round: make(chan struct{}),
		kick:  make(chan struct{}, 1),
		urge:  make(chan struct{}, 1),
	}
	j.synced = j.seq
	if opts.WrapFile != nil {
		j.f = opts.WrapFile(j.f)
	}
	j.stop, j.done = make(chan struct{}), make(chan struct{})
	go j.flush()
	if err := j.recover(found); err != nil {
		j.Close()
		return nil, err
	}
	return j, nil
}

// Path returns the file the journal writes.
func (j *Journal) Path() string { return j.path }

// Append writes r as the next record and returns it as written: Seq, Time,
// Prev and Hash filled, secrets masked, stdin and output cut to the cap.
// When it returns nil the line has been written to the file (and, with
// SyncAlways, synced: the call waits for an fsync that covers it).
//
// A write or sync failure fails the journal for good: this and every later
// Append return an error wrapping ErrFailed that says what went wrong. An
// error that is the record's own fault (no event, a value JSON cannot
// encode, an unusable key file) leaves the journal as it was.
func (j *Journal) Append(r Record) (Record, error) {
	if r.Event == "" {
		return Record{}, errors.New("journal record has no event")
	}
	var m *masker
	if slices.ContainsFunc(r.Secrets, func(s string) bool { return s != "" }) {
		key, err := j.keys.get()
		if err != nil {
			return Record{}, fmt.Errorf("journal cannot mask secrets: %w", err)
		}
		m = newMasker(key, r.Secrets)
		r = m.record(r)
	}
	r.Secrets = nil
	r.Stdin = r.Stdin.store(j.opts.OutputCap, m)
	r.Stdout = r.Stdout.store(j.opts.OutputCap, m)
	r.Stderr = r.Stderr.store(j.opts.OutputCap, m)

	seq, err := j.write(&r)
	if err != nil {
		return Record{}, err
	}
	if j.opts.Sync == SyncAlways {
		if err := j.Wait(context.Background(), seq); err != nil {
			return Record{}, err
		}
	}
	return r, nil
}

// write gives r its place in the chain and writes its line.
func (j *Journal) write(r *Record) (int64, error) {
	j.mu.Lock()
	defer j.mu.Unlock()
	if j.err != nil {
		return 0, j.err
	}
	if j.closed {
		return 0, ErrClosed
	}
	r.Seq, r.Time, r.Prev = j.seq+1, time.Now().UTC(), j.prev
	hash, err := j.enc.encode(r)
	if err != nil {
		return 0, fmt.Errorf("journal cannot encode %s record of call %q: %w", r.Event, r.Call, err)
	}
	if _, err := j.f.Write(j.enc.line()); err != nil {
		return 0, j.fail("write", err)
	}
	r.Hash, j.seq, j.prev = hash, r.Seq, hash
	if j.opts.Sync == SyncAlways {
		poke(j.urge)
	} else {
		poke(j.kick)
	}
	return r.Seq, nil
}

// Err returns the failure that stopped the journal, or nil while it works.
func (j *Journal) Err() error {
	j.mu.Lock()
	defer j.mu.Unlock()
	return j.err
}

// Recovery returns what Open found and repaired.
func (j *Journal) Recovery() Recovery { return j.recovery }

// Close syncs what was written, stops the flusher and closes the file. It
// returns the journal's failure if it had one. Closing twice is harmless.
func (j *Journal) Close() error {
	j.mu.Lock()
	if j.closed {
		j.mu.Unlock()
		return nil
	}
	j.closed = true
	j.mu.Unlock()
	close(j.stop)
	<-j.done
	j.syncOnce()
	err := j.Err()
	if cerr := j.f.Close(); cerr != nil && err == nil {
		err = fmt.Errorf("close journal %s: %w", j.path, cerr)
	}
	return err
}

// fail puts the journal in its failed state, once, and wakes every Wait.
// The caller holds j.mu. Nothing retries: a disk that failed a write or a
// sync may have lost what it said it had, and records after a hole would
// describe calls whose earlier steps are gone.
func (j *Journal) fail(op string, err error) error {
	if j.err == nil {
		j.err = fmt.Errorf("%w: %s %s: %w", ErrFailed, op, j.path, err)
		close(j.round)
		j.round = make(chan struct{})
	}
	return j.err
}
