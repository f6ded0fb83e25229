package journal

import (
	"fmt"
	"os"
)

// A segment's lock file exists, locked, while a process writes the
// segment. Whoever finds it unlocked knows that process is gone and may
// recover the segment (recover.go); the file is removed once the segment is
// closed, so a listing of the directory alone says which segments to look at.

// lockFile is a segment's lock file, held.
type lockFile struct {
	f    *os.File
	path string
}

// createLock makes and locks the lock file of a new segment. It is locked
// under a temporary name and only then renamed into place, so nobody ever
// finds it unlocked and takes a live segment for a dead one.
func createLock(dir, seg string) (*lockFile, error) {
	f, err := os.CreateTemp(dir, ".lock-*")
	if err != nil {
		return nil, fmt.Errorf("journal lock: %w", err)
	}
	held, err := lockExclusive(f)
	if err == nil && held {
		err = fmt.Errorf("%s is locked already", f.Name())
	}
	path := inDir(dir, lockName(seg))
	if err == nil {
		err = os.Rename(f.Name(), path)
	}
	if err != nil {
		os.Remove(f.Name())
		f.Close()
		return nil, fmt.Errorf("journal lock: %w", err)
	}
	return &lockFile{f, path}, nil
}

// claimDead locks the lock file of segment seg if the process that wrote it
// is gone. It returns nil, nil when the segment is live, or when someone
// recovered and removed it meanwhile.
func claimDead(dir, seg string) (*lockFile, error) {
	path := inDir(dir, lockName(seg))
	f, err := os.OpenFile(path, os.O_RDWR, 0)
	if os.IsNotExist(err) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("journal lock: %w", err)
	}
	held, err := lockExclusive(f)
	if err != nil || held {
		f.Close()
		return nil, err
	}
	// A recoverer that finished first removed the file we opened.
	here, err1 := os.Stat(path)
	ours, err2 := f.Stat()
	if err1 != nil || err2 != nil || !os.SameFile(here, ours) {
		f.Close()
		return nil, nil
	}
	return &lockFile{f, path}, nil
}

// release removes the lock file, then lets go of it: the segment is closed.
func (l *lockFile) release() {
	os.Remove(l.path)
	l.f.Close()
}

// drop lets go of the lock and leaves the file, for a segment that could not
// be closed: the next process to open the journal recovers it.
func (l *lockFile) drop() { l.f.Close() }
