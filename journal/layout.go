package journal

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"
)

// The names of a journal directory's files; see the package doc.
const (
	keyName     = "key"
	partSuffix  = ".jsonl"
	headSuffix  = ".head"
	lockSuffix  = ".lock"
	segmentTime = "20060102T150405Z"
)

// newSegmentID names a new segment: the UTC second it began and 48 random
// bits, which keep two processes started in the same second apart.
func newSegmentID(now time.Time) string {
	b := make([]byte, 6)
	rand.Read(b)
	return now.UTC().Format(segmentTime) + "-" + hex.EncodeToString(b)
}

// segmentStart is the second a segment's name says it began, or the zero
// time for a name that says none.
func segmentStart(id string) time.Time {
	if len(id) < len(segmentTime) {
		return time.Time{}
	}
	t, err := time.Parse(segmentTime, id[:len(segmentTime)])
	if err != nil {
		return time.Time{}
	}
	return t
}

func partName(seg string, part int) string { return seg + "." + strconv.Itoa(part) + partSuffix }
func headName(seg string) string           { return seg + headSuffix }
func lockName(seg string) string           { return seg + lockSuffix }

// validSegment reports whether id can name a segment: letters, digits, '-'
// and '_' only, so a name splits back into segment and part one way.
func validSegment(id string) bool {
	if id == "" {
		return false
	}
	for _, c := range id {
		if (c < 'a' || c > 'z') && (c < 'A' || c > 'Z') && (c < '0' || c > '9') && c != '-' && c != '_' {
			return false
		}
	}
	return true
}

// parsePart splits a file name into segment and part; ok is false for a
// name that is not a segment file.
func parsePart(name string) (seg string, part int, ok bool) {
	base, found := strings.CutSuffix(name, partSuffix)
	if !found {
		return "", 0, false
	}
	dot := strings.LastIndexByte(base, '.')
	if dot < 0 {
		return "", 0, false
	}
	n, err := strconv.Atoi(base[dot+1:])
	if err != nil || n < 1 || base[dot+1] == '0' || !validSegment(base[:dot]) {
		return "", 0, false
	}
	return base[:dot], n, true
}

// segmentFiles is what the directory holds of one segment.
type segmentFiles struct {
	id    string
	parts []int // ascending
	head  bool
	lock  bool
}

// last returns the segment's last part, 0 when it has none.
func (s segmentFiles) last() int {
	if len(s.parts) == 0 {
		return 0
	}
	return s.parts[len(s.parts)-1]
}

// listing is a journal directory's contents by segment.
type listing struct {
	segments []segmentFiles // by id, so by age
	others   []string       // names that are none of the journal's files
}

// listDir reads a journal directory's names. It opens no file.
func listDir(dir string) (listing, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return listing{}, err
	}
	var l listing
	byID := map[string]*segmentFiles{}
	get := func(id string) *segmentFiles {
		s := byID[id]
		if s == nil {
			s = &segmentFiles{id: id}
			byID[id] = s
		}
		return s
	}
	for _, e := range entries {
		name := e.Name()
		if seg, part, ok := parsePart(name); ok {
			s := get(seg)
			s.parts = append(s.parts, part)
		} else if seg, ok := strings.CutSuffix(name, headSuffix); ok && validSegment(seg) {
			get(seg).head = true
		} else if seg, ok := strings.CutSuffix(name, lockSuffix); ok && validSegment(seg) {
			get(seg).lock = true
		} else if name != keyName && !strings.HasPrefix(name, ".") {
			l.others = append(l.others, name)
		}
	}
	for _, s := range byID {
		slices.Sort(s.parts)
		l.segments = append(l.segments, *s)
	}
	slices.SortFunc(l.segments, func(a, b segmentFiles) int { return strings.Compare(a.id, b.id) })
	return l, nil
}

// locate finds the journal at path, as every reader of a journal does: path
// itself, a directory or a single file, or, when nothing is there, the
// single-file journal beside it (legacyFile: the old default location, not
// yet adopted). It returns the path to read and whether it is a directory;
// a journal at neither place is missingJournal(path).
func locate(path string) (found string, dir bool, err error) {
	info, err := os.Stat(path)
	if err == nil {
		return path, info.IsDir(), nil
	}
	if !errors.Is(err, fs.ErrNotExist) {
		return "", false, err
	}
	legacy := legacyFile(path)
	if info, err := os.Stat(legacy); err == nil && !info.IsDir() {
		return legacy, false, nil
	}
	return "", false, missingJournal(path)
}

// isDir reports whether path is an existing directory; a path that does not
// exist is not an error.
func isDir(path string) (exists, dir bool, err error) {
	info, err := os.Stat(path)
	if os.IsNotExist(err) {
		return false, false, nil
	}
	if err != nil {
		return false, false, err
	}
	return true, info.IsDir(), nil
}

// inDir joins a journal directory and one of its names.
func inDir(dir, name string) string { return filepath.Join(dir, name) }

// missingJournal is the error for a journal that does not exist; it is
// fs.ErrNotExist to errors.Is.
type missingJournal string

func (m missingJournal) Error() string        { return "journal " + string(m) + " does not exist" }
func (m missingJournal) Is(target error) bool { return target == fs.ErrNotExist }

// errNotDir refuses to write into a single-file journal.
func errNotDir(path string) error {
	return fmt.Errorf("journal %s is a single file, as assent wrote before journals became directories: "+
		"`assent log --journal %s` still reads and verifies it, but new records go to a directory "+
		"(give --journal a directory, or move the file to DIR.jsonl beside an empty DIR to have it adopted)", path, path)
}
