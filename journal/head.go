package journal

import (
	"crypto/hmac"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strconv"
)

// headFile is what a segment's head file says: the latest seal of the
// segment known to be on disk. It lives outside the segment's files, so
// cutting records from their end leaves it naming one they no longer hold.
type headFile struct {
	Segment string `json:"segment"`
	// Part is the file the seal is in.
	Part int `json:"part"`
	// Seq and Hash are the seal record's own.
	Seq  int64  `json:"seq"`
	Hash string `json:"hash"`
	// Closed says the seal is the segment's closing one.
	Closed bool `json:"closed,omitempty"`
	// MAC vouches for the fields above (seal.go).
	MAC string `json:"mac"`
}

func (h headFile) mac(key []byte) string {
	return macOf(key, "head", h.Segment, strconv.Itoa(h.Part), strconv.FormatInt(h.Seq, 10), h.Hash,
		strconv.FormatBool(h.Closed))
}

// holds reports whether the head file's MAC is the one key gives it.
func (h headFile) holds(key []byte) bool {
	return hmac.Equal([]byte(h.mac(key)), []byte(h.MAC))
}

// writeHead replaces the segment's head file. The new one is written to a
// temporary file, synced and renamed over the old, so a reader finds the old
// head or the new one, never a mix. The caller writes a head only once the
// seal it names is synced: a head ahead of its files means records were cut.
func writeHead(dir string, h headFile, key []byte) error {
	h.MAC = h.mac(key)
	data, err := json.Marshal(h)
	if err != nil {
		return err
	}
	tmp, err := os.CreateTemp(dir, ".head-*")
	if err != nil {
		return fmt.Errorf("write head of segment %s: %w", h.Segment, err)
	}
	defer os.Remove(tmp.Name())
	err = tmp.Chmod(0o600)
	if err == nil {
		_, err = tmp.Write(append(data, '\n'))
	}
	if err == nil {
		err = tmp.Sync()
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp.Name(), inDir(dir, headName(h.Segment)))
	}
	if err != nil {
		return fmt.Errorf("write head of segment %s: %w", h.Segment, err)
	}
	return nil
}

// readHead reads a segment's head file without checking its MAC.
func readHead(dir, seg string) (headFile, error) {
	f, err := os.Open(inDir(dir, headName(seg)))
	if err != nil {
		return headFile{}, err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, 4<<10))
	if err != nil {
		return headFile{}, err
	}
	var h headFile
	if err := json.Unmarshal(data, &h); err != nil {
		return headFile{}, fmt.Errorf("head file of segment %s is not a head: %w", seg, err)
	}
	return h, nil
}
