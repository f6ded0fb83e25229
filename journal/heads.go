package journal

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
)

// Head is where a segment's chain ends: a value to keep somewhere the
// journal's writers cannot reach. A chain proves nothing changed before the
// head it ends in, not that the head is the one written; a head kept
// elsewhere proves that, whoever holds the key.
type Head struct {
	Segment string `json:"segment"`
	Seq     int64  `json:"seq"`
	Hash    string `json:"hash"`
	// Closed says the segment ends in its closing seal: its head will not
	// change again.
	Closed bool `json:"closed"`
}

// Heads returns the head of every segment of the journal at path, oldest
// first; a single file has one, named after the file. path is found as
// NewReader finds it. Only the last line of each segment is read.
func Heads(path string) ([]Head, error) {
	path, dir, err := locate(path)
	switch {
	case err != nil:
		return nil, err
	case !dir:
		h, err := headOf(path, filepath.Base(path))
		if err != nil {
			return nil, err
		}
		return []Head{h}, nil
	}
	l, err := listDir(path)
	if err != nil {
		return nil, err
	}
	var heads []Head
	for _, s := range l.segments {
		if s.last() == 0 {
			continue
		}
		h, err := headOf(inDir(path, partName(s.id, s.last())), s.id)
		if err != nil {
			return nil, err
		}
		heads = append(heads, h)
	}
	return heads, nil
}

// headOf reads the last complete record of a file.
func headOf(path, segment string) (Head, error) {
	f, err := os.Open(path)
	if err != nil {
		return Head{}, err
	}
	defer f.Close()
	size, err := fileSize(f)
	if err != nil {
		return Head{}, err
	}
	h := Head{Segment: segment}
	var bad error
	err = scanBackward(f, size, func(line []byte, _ int64) bool {
		var r head
		stated, _, ok := lineHashes(line)
		if decodeHead(line, &r) != nil || !ok {
			bad = fmt.Errorf("the last line of %s is not a record: `assent log --verify` says more", path)
			return false
		}
		h.Seq, h.Hash, h.Closed = r.Seq, stated, r.Event == Closed
		return false
	})
	return h, errors.Join(err, bad)
}
