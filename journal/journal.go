package journal

import (
	"context"
	"errors"
	"fmt"
	"os"
	"slices"
	"sync"
	"time"
)

// ErrFailed is wrapped by every error of a journal that could not write or
// sync: errors.Is(err, ErrFailed) tells the queue to refuse new calls.
var ErrFailed = errors.New("journal failed")

// ErrClosed is returned by Append after Close.
var ErrClosed = errors.New("journal is closed")

// Journal appends this process's segment of a journal directory. It is safe
// for concurrent use; seq order is the order in which Append calls took the
// lock.
type Journal struct {
	dir      string
	opts     Options
	keys     *keyring
	lock     *lockFile
	recovery Recovery

	mu          sync.Mutex
	w           *writer
	synced      int64         // last seq known to be on disk
	headWritten int64         // seq of the seal the head file names
	round       chan struct{} // closed when the next sync attempt ends
	err         error         // the first write or sync failure; sticky
	closed      bool

	kick chan struct{} // a record awaits sync
	urge chan struct{} // someone waits for a sync: skip the window
	stop chan struct{}
	done chan struct{}
}

// Open opens the journal directory dir for appending, creating it (0700)
// and its key (0600) if needed, and begins a segment of this process's own,
// so any number of processes may have one journal open at once. Segments
// whose process died are recovered on the way (see recover.go), each from
// its last seal; Recovery says what was found. A single-file journal named
// dir + ".jsonl" is adopted into the directory first (adopt.go); dir itself
// being such a file is refused.
func Open(dir string, opts Options) (*Journal, error) {
	opts, err := opts.resolve(dir)
	if err != nil {
		return nil, err
	}
	if exists, isDir, err := isDir(dir); err != nil {
		return nil, fmt.Errorf("journal: %w", err)
	} else if exists && !isDir {
		return nil, errNotDir(dir)
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("journal directory: %w", err)
	}
	keys := &keyring{path: opts.KeyPath}
	adopted, err := adopt(dir, opts.KeyPath)
	if err != nil {
		return nil, err
	}
	key, err := keys.sealKey()
	if err != nil {
		return nil, fmt.Errorf("journal key: %w", err)
	}
	w := newWriter(dir, newSegmentID(time.Now()), key, opts)
	lock, err := createLock(dir, w.segment)
	if err != nil {
		return nil, err
	}
	if err := w.create(1); err != nil {
		if w.f != nil {
			w.f.Close()
			os.Remove(w.path())
		}
		lock.release()
		return nil, fmt.Errorf("journal: %w", err)
	}
	j := &Journal{
		dir: dir, opts: opts, keys: keys, lock: lock, w: w,
		round: make(chan struct{}),
		kick:  make(chan struct{}, 1),
		urge:  make(chan struct{}, 1),
		stop:  make(chan struct{}),
		done:  make(chan struct{}),
	}
	j.recovery = recoverDead(dir, w.segment, key)
	j.recovery.Adopted = adopted
	go j.flush()
	return j, nil
}

// Dir returns the journal's directory: what `assent log --journal` reads.
func (j *Journal) Dir() string { return j.dir }

// Segment returns the name of this process's segment. It is unique among
// the journal's segments, so it can tell this process's calls from others'.
func (j *Journal) Segment() string { return j.w.segment }

// Path returns the file the journal writes now; it changes when the
// segment rolls to its next file.
func (j *Journal) Path() string {
	j.mu.Lock()
	defer j.mu.Unlock()
	return j.w.path()
}

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
	one := [1]Record{r}
	if err := j.AppendAll(one[:]...); err != nil {
		return Record{}, err
	}
	return one[0], nil
}

// AppendAll writes rs as the next records, in order, as Append would write
// them one after another, but in one write: the steps of a call taken at
// once (received, decided by a rule, started) cost one system call. Each
// record is filled in as written. A record at fault stops it: the records
// before it are written, it and those after it are not, and the error is
// Append's for it.
func (j *Journal) AppendAll(rs ...Record) error {
	for i := range rs {
		if err := j.prepare(&rs[i]); err != nil {
			if i > 0 {
				if err := j.commit(rs[:i]); err != nil {
					return err
				}
			}
			return err
		}
	}
	return j.commit(rs)
}

// prepare checks that r is the caller's to write, masks its secrets and
// cuts its stdin and output to the cap.
func (j *Journal) prepare(r *Record) error {
	if r.Event == "" {
		return errors.New("journal record has no event")
	}
	if r.Event.bookkeeping() {
		return fmt.Errorf("journal records of event %q are the journal's own", r.Event)
	}
	var m *masker
	if slices.ContainsFunc(r.Secrets, func(s string) bool { return s != "" }) {
		key, err := j.keys.get()
		if err != nil {
			return fmt.Errorf("journal cannot mask secrets: %w", err)
		}
		m = newMasker(key, r.Secrets)
		*r = m.record(*r)
	}
	r.Secrets, r.Segment, r.Part, r.Open, r.Seal = nil, "", 0, nil, ""
	r.Stdin = r.Stdin.store(j.opts.OutputCap, nil) // masked by the caller, by position
	r.Stdout = r.Stdout.store(j.opts.OutputCap, m)
	r.Stderr = r.Stderr.store(j.opts.OutputCap, m)
	return nil
}

// commit writes prepared records and, with SyncAlways, waits until they
// are synced.
func (j *Journal) commit(rs []Record) error {
	seq, err := j.write(rs)
	if seq > 0 && j.opts.Sync == SyncAlways {
		if werr := j.Wait(context.Background(), seq); werr != nil {
			return werr
		}
	}
	return err
}

// Token returns the masked form of a secret value, as the journal writes
// it: the same token for the same value under this journal's key, so one
// secret can be followed across records, and no way back to the value
// without the key. The caller puts it where a secret parameter filled a
// command or an argument.
func (j *Journal) Token(secret string) (string, error) {
	key, err := j.keys.get()
	if err != nil {
		return "", fmt.Errorf("journal cannot mask secrets: %w", err)
	}
	return secretToken(key, secret), nil
}

// write gives each record its place in the chain, with a seal after any
// record that completes enough for one, and writes their lines at once. It
// returns the last record's seq, or 0 if none was written. A record that
// cannot be encoded stops it after the lines before it are written.
func (j *Journal) write(rs []Record) (int64, error) {
	j.mu.Lock()
	defer j.mu.Unlock()
	if j.err != nil {
		return 0, j.err
	}
	if j.closed {
		return 0, ErrClosed
	}
	if len(rs) > 1 {
		j.w.hold() // a record alone is written as it is encoded
	}
	var seq int64
	var failed error
	for i := range rs {
		if failed = j.w.append(&rs[i]); failed != nil {
			break
		}
		seq = rs[i].Seq
		if j.w.unsealed >= j.opts.SealEvery {
			if failed = j.w.seal(Sealed); failed != nil {
				break
			}
		}
	}
	if err := j.w.release(); err != nil {
		return 0, j.failOn(err)
	}
	if seq > 0 {
		if j.opts.Sync == SyncAlways {
			poke(j.urge)
		} else {
			poke(j.kick)
		}
	}
	if failed != nil {
		return seq, j.failOn(failed)
	}
	return seq, nil
}

// Err returns the failure that stopped the journal, or nil while it works.
func (j *Journal) Err() error {
	j.mu.Lock()
	defer j.mu.Unlock()
	return j.err
}

// Recovery returns what Open found and repaired.
func (j *Journal) Recovery() Recovery { return j.recovery }
