package journal

import (
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
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
	// KeyPath is the file holding the journal's key, which masks secrets
	// and (derived) seals; empty means "key" in the journal's directory. It
	// is created 0600 when the journal first opens.
	KeyPath string
	// MaxSize is how large a file may grow before the segment rolls to the
	// next; zero means DefaultMaxSize. The record that would pass it goes to
	// the next file, after the seal that ends this one (which may pass it
	// by its own few hundred bytes); a record larger than it goes whole
	// into a file of its own.
	MaxSize int64
	// SealEvery is how many records may follow a seal before the next;
	// zero means DefaultSealEvery.
	SealEvery int
	// SealInterval is how long records may wait for a seal; zero means
	// DefaultSealInterval.
	SealInterval time.Duration
	// WrapFile, when set, wraps each file the journal creates for writing,
	// before its first record. Its Close must close the file it was given.
	// It is how tests stand a full or failing disk in for the real one.
	WrapFile func(File) File
}

// DefaultMaxSize is the size at which a journal file rolls to the next.
const DefaultMaxSize = 256 << 20

// DefaultSealEvery and DefaultSealInterval bound what follows a segment's
// last seal, which is what verification cannot vouch for.
const (
	DefaultSealEvery    = 1000
	DefaultSealInterval = time.Second
)

// resolve fills defaults and checks the values.
func (o Options) resolve(dir string) (Options, error) {
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
		o.KeyPath = inDir(dir, keyName)
	}
	if o.MaxSize == 0 {
		o.MaxSize = DefaultMaxSize
	}
	if o.SealEvery == 0 {
		o.SealEvery = DefaultSealEvery
	}
	if o.SealInterval == 0 {
		o.SealInterval = DefaultSealInterval
	}
	if o.MaxSize < 0 || o.SealEvery < 0 || o.SealInterval < 0 {
		return o, fmt.Errorf("journal max size %d, seal every %d and seal interval %v must not be negative",
			o.MaxSize, o.SealEvery, o.SealInterval)
	}
	return o, nil
}

// minMaxSize is the least ParseSize accepts: smaller files would hold a few
// records each.
const minMaxSize = 64 << 10

// ParseSize reads the value of a --journal-max-size flag: bytes, or a
// number with KiB, MiB or GiB after it ("256MiB").
func ParseSize(s string) (int64, error) {
	text := strings.TrimSpace(s)
	unit := int64(1)
	for _, u := range []struct {
		suffix string
		size   int64
	}{{"kib", 1 << 10}, {"mib", 1 << 20}, {"gib", 1 << 30}} {
		if len(text) > len(u.suffix) && strings.EqualFold(text[len(text)-len(u.suffix):], u.suffix) {
			text, unit = strings.TrimSpace(text[:len(text)-len(u.suffix)]), u.size
			break
		}
	}
	n, err := strconv.ParseInt(text, 10, 64)
	if err != nil || n <= 0 || n > math.MaxInt64/unit {
		return 0, fmt.Errorf("journal max size %q is not a size: give bytes, or a number with KiB, MiB or GiB (256MiB)", s)
	}
	if n*unit < minMaxSize {
		return 0, fmt.Errorf("journal max size %q is below the least, 64KiB", s)
	}
	return n * unit, nil
}
