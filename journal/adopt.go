package journal

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strconv"
	"time"
)

// legacyFile is where a journal directory's single-file predecessor sits:
// beside it, named like it with ".jsonl", as the old default location
// ($XDG_STATE_HOME/assent/journal.jsonl) sits beside the new one.
func legacyFile(dir string) string { return dir + partSuffix }

// adopt moves the single-file journal beside dir into it, as a segment of
// its own, so that `assent log` reads old and new calls together. Its key
// moves too when dir has none yet, so a secret is masked the same way in old
// records and new. The file becomes part 1 of segment TIME-legacy (TIME the
// second of its first record) with a lock file and no process: the recovery
// that follows in Open closes it as it closes a dead segment, cutting a torn
// tail, marking calls left open interrupted and sealing it. An older assent
// still writing the file holds its lock; then nothing moves, until an Open
// after it has gone. It returns the new segment's name, or "".
func adopt(dir, keyPath string) (string, error) {
	path := legacyFile(dir)
	if info, err := os.Lstat(path); err != nil || !info.Mode().IsRegular() {
		return "", nil // nothing to adopt: no file, or not one assent wrote
	}
	f, err := os.OpenFile(path, os.O_RDWR, 0)
	if err != nil {
		return "", fmt.Errorf("journal: adopt %s: %w", path, err)
	}
	defer f.Close()
	if held, err := lockExclusive(f); err != nil || held {
		return "", err
	}
	seg, err := legacySegment(f, dir)
	if err != nil {
		return "", fmt.Errorf("journal: not adopting %s: %w", path, err)
	}
	if _, err := os.Stat(keyPath); os.IsNotExist(err) {
		if err := os.Link(path+".key", keyPath); err == nil {
			os.Remove(path + ".key")
		} else if !os.IsNotExist(err) && !os.IsExist(err) {
			return "", fmt.Errorf("journal: adopt the key of %s: %w", path, err)
		}
	}
	lock, err := createLock(dir, seg)
	if err != nil {
		return "", err
	}
	if err := os.Rename(path, inDir(dir, partName(seg, 1))); err != nil {
		lock.release()
		return "", fmt.Errorf("journal: adopt %s: %w", path, err)
	}
	lock.drop()
	return seg, nil
}

// legacySegment names the segment a single-file journal becomes.
func legacySegment(f *os.File, dir string) (string, error) {
	var first struct {
		Time time.Time `json:"time"`
	}
	line, err := newLineReader(f).next()
	switch {
	case err == io.EOF:
		info, err := f.Stat()
		if err != nil {
			return "", err
		}
		first.Time = info.ModTime()
	case err != nil:
		return "", err
	case json.Unmarshal(line, &first) != nil:
		return "", fmt.Errorf("its first line is not a journal record")
	}
	base := first.Time.UTC().Format(segmentTime) + "-legacy"
	seg := base
	for n := 2; ; n++ {
		if _, err := os.Stat(inDir(dir, partName(seg, 1))); os.IsNotExist(err) {
			return seg, nil
		}
		seg = base + strconv.Itoa(n)
	}
}
