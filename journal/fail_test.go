package journal

import (
	"context"
	"errors"
	"strings"
	"sync"
	"syscall"
	"testing"
)

// faultyFile stands in for a disk that fills up or stops syncing: writes
// succeed until budget bytes are spent, then one write lands partly and
// fails with ENOSPC; syncs fail once syncErr is set.
type faultyFile struct {
	File
	mu      sync.Mutex
	budget  int
	syncErr error
	writes  int
	syncs   int
}

func (f *faultyFile) Write(p []byte) (int, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.writes++
	if len(p) <= f.budget {
		f.budget -= len(p)
		return f.File.Write(p)
	}
	n, _ := f.File.Write(p[:f.budget])
	f.budget = 0
	return n, syscall.ENOSPC
}

func (f *faultyFile) Sync() error {
	f.mu.Lock()
	f.syncs++
	err := f.syncErr
	f.mu.Unlock()
	if err != nil {
		return err
	}
	return f.File.Sync()
}

func (f *faultyFile) counts() (writes, syncs int) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.writes, f.syncs
}

func TestAppend_FailedDiskStopsTheJournal(t *testing.T) {
	tests := []struct {
		name    string
		sync    SyncMode
		budget  int
		syncErr error
		want    error  // what the failure wraps
		says    string // what its message must say
	}{
		{name: "disk full, group commit", sync: SyncGroup, budget: 1500, want: syscall.ENOSPC, says: "write"},
		{name: "disk full, sync always", sync: SyncAlways, budget: 1500, want: syscall.ENOSPC, says: "write"},
		{name: "sync fails, group commit", sync: SyncGroup, budget: 1 << 30, syncErr: syscall.EIO, want: syscall.EIO, says: "sync"},
		{name: "sync fails, sync always", sync: SyncAlways, budget: 1 << 30, syncErr: syscall.EIO, want: syscall.EIO, says: "sync"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var disk *faultyFile
			j := openTest(t, Options{Sync: tt.sync, WrapFile: func(f File) File {
				disk = &faultyFile{File: f, budget: tt.budget}
				return disk
			}})
			disk.mu.Lock()
			disk.syncErr = tt.syncErr
			disk.mu.Unlock()

			// Append until the disk fails; with group commit a sync
			// failure shows on the Append after it, or on Wait.
			var failure error
			for i := 0; i < 100 && failure == nil; i++ {
				var r Record
				r, failure = j.Append(Record{Call: "c", Event: Received, Argv: []string{"echo", strings.Repeat("x", 200)}})
				if failure == nil {
					failure = j.Wait(context.Background(), r.Seq)
				}
			}
			if failure == nil {
				t.Fatal("the journal never reported the disk's failure")
			}
			if !errors.Is(failure, ErrFailed) || !errors.Is(failure, tt.want) {
				t.Errorf("failure = %v; want it to wrap ErrFailed and %v", failure, tt.want)
			}
			msg := failure.Error()
			if !strings.Contains(msg, "journal failed") || !strings.Contains(msg, tt.says) ||
				!strings.Contains(msg, j.Path()) || !strings.Contains(msg, tt.want.Error()) {
				t.Errorf("failure message %q does not say the journal failed, on %s of %s, with %q",
					msg, tt.says, j.Path(), tt.want)
			}

			// Failed for good, with no retry: later appends touch nothing.
			writes, syncs := disk.counts()
			for range 3 {
				_, err := j.Append(Record{Call: "d", Event: Received})
				if !errors.Is(err, ErrFailed) || err.Error() != msg {
					t.Errorf("Append after the failure: err = %v, want the same failure", err)
				}
			}
			if err := j.Err(); err == nil || err.Error() != msg {
				t.Errorf("Err() = %v, want %q", err, msg)
			}
			if err := j.Close(); err == nil || err.Error() != msg {
				t.Errorf("Close() = %v, want the failure", err)
			}
			if w, s := disk.counts(); w != writes || s != syncs {
				t.Errorf("after failing, the journal wrote %d and synced %d more times", w-writes, s-syncs)
			}

			// The segment it leaves is recovered by the next Open, and
			// verifies.
			again, err := Open(j.Dir(), Options{})
			if err != nil {
				t.Fatalf("reopen: %v", err)
			}
			if rec := again.Recovery(); rec.Fault != nil || len(rec.Segments) != 1 {
				t.Errorf("reopen recovered %+v; want the failed segment, with no broken chain", rec)
			}
			if err := again.Close(); err != nil {
				t.Fatal(err)
			}
			if rep := mustVerify(t, j.Dir()); rep.TornBytes != 0 {
				t.Errorf("Verify after reopen = %+v", rep)
			}
		})
	}
}
