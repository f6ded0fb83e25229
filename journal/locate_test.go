package journal

import (
	"errors"
	"io/fs"
	"path/filepath"
	"strings"
	"testing"
)

// Every reader of a journal finds it the same way: given a directory that
// does not exist, it reads the single-file journal beside it (the old
// default location), and given neither, it says the journal does not exist.
func TestLocate_EveryReaderFindsTheOldDefaultFile(t *testing.T) {
	readers := []struct {
		name string
		read func(path string) (records int64, err error)
	}{
		{"Read", func(path string) (int64, error) {
			recs, err := Read(path)
			return int64(len(recs)), err
		}},
		{"Verify", func(path string) (int64, error) {
			rep, err := Verify(path)
			return rep.Records, err
		}},
		{"Heads", func(path string) (int64, error) {
			heads, err := Heads(path)
			if len(heads) != 1 {
				return 0, errors.Join(err, errors.New("not one head"))
			}
			return heads[0].Seq, err
		}},
	}
	dir := strings.TrimSuffix(oldJournal(t, 2), partSuffix) // 8 records in dir.jsonl
	missing := filepath.Join(t.TempDir(), "journal")
	for _, r := range readers {
		t.Run(r.name, func(t *testing.T) {
			if n, err := r.read(dir); err != nil || n != 8 {
				t.Errorf("%s(%s) beside the old file = %d, %v; want its 8 records", r.name, dir, n, err)
			}
			if _, err := r.read(missing); !errors.Is(err, fs.ErrNotExist) || !strings.Contains(err.Error(), missing) {
				t.Errorf("%s(%s) = %v; want not-exist naming it", r.name, missing, err)
			}
		})
	}
}
