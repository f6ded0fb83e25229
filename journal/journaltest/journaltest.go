// Package journaltest writes journals for the tests of the packages that
// read them (replay, and assent's log and replay commands).
package journaltest

import (
	"path/filepath"
	"testing"

	"github.com/assent-sh/assent/journal"
)

// Write writes recs, in order, to a new journal directory named name in a
// fresh temporary directory, closes it, and returns its path.
func Write(t testing.TB, name string, recs ...journal.Record) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), name)
	j, err := journal.Open(dir, journal.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range recs {
		if _, err := j.Append(r); err != nil {
			t.Fatal(err)
		}
	}
	if err := j.Close(); err != nil {
		t.Fatal(err)
	}
	return dir
}
