package journal

import (
	"errors"
	"os"
	"strings"
	"syscall"
	"testing"
)

// syncData syncs an *os.File itself and reports its failure, naming the
// file: a pipe cannot be synced.
func TestSyncData_ReportsAFailedSync(t *testing.T) {
	f, err := os.CreateTemp(t.TempDir(), "journal")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := f.WriteString("{}\n"); err != nil {
		t.Fatal(err)
	}
	if err := syncData(f); err != nil {
		t.Fatalf("syncing a file: %v", err)
	}
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	defer w.Close()
	err = syncData(w)
	if !errors.Is(err, syscall.EINVAL) || !strings.Contains(err.Error(), "fdatasync "+w.Name()) {
		t.Fatalf("syncing a pipe: %v, want fdatasync's EINVAL naming %s", err, w.Name())
	}
}
