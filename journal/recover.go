package journal

import (
	"fmt"
	"io"
	"os"
	"sort"
	"strings"
)

// Recovery is what Open found in an existing journal and what it did.
type Recovery struct {
	// Records is how many records the file held.
	Records int64
	// TornBytes is how many bytes of an unfinished last line were cut.
	TornBytes int64
	// Interrupted lists, in order of first appearance, the calls that had
	// not ended and are now marked Interrupted.
	Interrupted []string
	// Fault is the first break in the chain, nil when it verified. The
	// journal opens anyway, since refusing would stop every call, and the
	// fault stays in the file for `assent log --verify` to name.
	Fault *Fault
}

// Clean reports whether nothing needed recovering.
func (r Recovery) Clean() bool {
	return r.TornBytes == 0 && len(r.Interrupted) == 0 && r.Fault == nil
}

// String says what recovery found in one line, for the console and the
// Recovered record.
func (r Recovery) String() string {
	if r.Clean() {
		return fmt.Sprintf("%d records, nothing to recover", r.Records)
	}
	var parts []string
	if r.TornBytes > 0 {
		parts = append(parts, fmt.Sprintf("cut %d bytes of a torn last line", r.TornBytes))
	}
	if n := len(r.Interrupted); n > 0 {
		parts = append(parts, fmt.Sprintf("marked %d unfinished calls interrupted", n))
	}
	if r.Fault != nil {
		parts = append(parts, "chain broken at "+r.Fault.Error())
	}
	return strings.Join(parts, "; ")
}

// openCall is a call seen in the journal with no ending yet.
type openCall struct {
	first int64 // seq of its first record
	state Event // its last lifecycle event
}

// found is the state of a journal file as Open read it.
type found struct {
	chain chain
	torn  int64
	open  map[string]openCall
}

// scanForRecovery reads f from the start, cuts a torn tail, and returns the
// chain's end and the calls left unfinished.
func scanForRecovery(f *os.File, path string) (found, error) {
	fd := found{open: make(map[string]openCall)}
	if _, err := f.Seek(0, io.SeekStart); err != nil {
		return fd, fmt.Errorf("read journal %s: %w", path, err)
	}
	c, lines, err := walkChain(f, func(c *chain, h head, ok bool) error {
		if !ok && c.line == 1 {
			return fmt.Errorf("%s does not look like an assent journal: its first line is not a record", path)
		}
		fd.track(h)
		return nil
	})
	if err != nil {
		return fd, err // a read error from *os.File names the path already
	}
	fd.chain, fd.torn = *c, lines.torn
	if fd.torn > 0 {
		if err := f.Truncate(lines.end); err != nil {
			return fd, fmt.Errorf("cut torn line of journal %s: %w", path, err)
		}
	}
	return fd, nil
}

// track follows each call to its end: finished, interrupted, or denied.
func (fd *found) track(h head) {
	if h.Call == "" {
		return
	}
	if h.Event == Finished || h.Event == Interrupted || (h.Event == Decided && h.Decision == Deny) {
		delete(fd.open, h.Call)
		return
	}
	c, seen := fd.open[h.Call]
	if !seen {
		c.first = h.Seq
	}
	if h.Event != Output && h.Event != Edited {
		c.state = h.Event
	}
	fd.open[h.Call] = c
}

// recover appends what Open must add to a journal that was not closed
// cleanly: one Recovered record saying what was found, then an Interrupted
// record for each call left unfinished, and syncs them before Open returns.
func (j *Journal) recover(fd found) error {
	j.recovery = Recovery{Records: fd.chain.records, TornBytes: fd.torn, Fault: fd.chain.fault}
	ids := make([]string, 0, len(fd.open))
	for id := range fd.open {
		ids = append(ids, id)
	}
	sort.Slice(ids, func(a, b int) bool { return fd.open[ids[a]].first < fd.open[ids[b]].first })
	j.recovery.Interrupted = ids
	if j.recovery.Clean() {
		return nil
	}
	if _, err := j.Append(Record{Event: Recovered, Reason: j.recovery.String(), TornBytes: fd.torn}); err != nil {
		return err
	}
	for _, id := range ids {
		why := "was running when the journal was last closed: its outcome is unknown and it is not re-run"
		if fd.open[id].state != Started {
			why = "had not started when the journal was last closed: it never ran and is not re-run"
		}
		if _, err := j.Append(Record{Call: id, Event: Interrupted, Reason: why}); err != nil {
			return err
		}
	}
	j.syncOnce()
	return j.Err()
}
