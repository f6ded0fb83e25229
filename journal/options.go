package journal

import (
	"fmt"
	"io"
	"time"
)

// SyncMode says when appended records are forced to disk with fsync. Either
// way every record is written (write(2)) before Append returns, so a crash of
// the process alone loses nothing; the mode decides what a power loss may.
type SyncMode string

const (
	// SyncGroup syncs in the background: one fsync covers every record
	// written since the last, at most DefaultSyncWindow (or
	// Options.SyncWindow) plus one fsync after a record is written. Wait
	// blocks until a given record is synced. It is the default.
	SyncGroup SyncMode = "group"
	// SyncAlways makes Append return only once its record is synced. The
	// flusher skips its window, and appends that arrive together still
	// share one fsync: no record is acknowledged before it is on disk, and
	// concurrent calls do not queue behind one fsync each.
	SyncAlways SyncMode = "always"
)

// ParseSyncMode reads the value of a --journal-sync flag.
func ParseSyncMode(s string) (SyncMode, error) {
	switch m := SyncMode(s); m {
	case SyncGroup, SyncAlways:
		return m, nil
	}
	return "", fmt.Errorf("journal sync mode %q is not %q or %q", s, SyncGroup, SyncAlways)
}

// DefaultSyncWindow is how long the group-commit flusher waits, after the
// first unsynced record, for more to share one fsync.
const DefaultSyncWindow = 10 * time.Millisecond

// maxSyncWindow bounds Options.SyncWindow: beyond it, "written but not yet
// durable" would last long enough to matter to an operator.
const maxSyncWindow = 50 * time.Millisecond

// File is what the journal writes to. The journal calls Write under its lock
// and Sync from its flusher, possibly at the same time, so an
// implementation must allow that (an *os.File does).
type File interface {
	io.Writer
	Sync() error
	Close() error
}

// Options tune a Journal. The zero value is the default for each field.
type Options struct {
	// Sync is SyncGroup (the default when empty) or SyncAlways.
	Sync SyncMode
	// SyncWindow is the group-commit wait; zero means DefaultSyncWindow.
	// At most 50ms.
	SyncWindow time.Duration
	// OutputCap is how many bytes of each of stdin, stdout and stderr are
	// stored per record; zero means DefaultOutputCap and a negative value
	// stores none (the hash and length are kept either way).
	OutputCap int
	// KeyPath is the file holding the key that masks secrets; empty means
	// the journal's path with ".key" added. It is created 0600 the first
	// time a record carries a secret.
	KeyPath string
	// WrapFile, when set, wraps the opened journal file before anything is
	// appended. Its Close must close the file it was given. It is how tests
	// stand a full or failing disk in for the real one.
	WrapFile func(File) File
}

// resolve fills defaults and checks the values.
func (o Options) resolve(path string) (Options, error) {
	if o.Sync == "" {
		o.Sync = SyncGroup
	}
	if _, err := ParseSyncMode(string(o.Sync)); err != nil {
		return o, err
	}
	if o.SyncWindow == 0 {
		o.SyncWindow = DefaultSyncWindow
	}
	if o.SyncWindow < 0 || o.SyncWindow > maxSyncWindow {
		return o, fmt.Errorf("journal sync window %v is not between 0 and %v", o.SyncWindow, maxSyncWindow)
	}
	if o.OutputCap == 0 {
		o.OutputCap = DefaultOutputCap
	}
	if o.KeyPath == "" {
		o.KeyPath = path + ".key"
	}
	return o, nil
}
