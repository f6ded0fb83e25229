package journal

import (
	"fmt"
	"os"
	"strings"
)

// Recovery is what Open found in the segments of processes that ended
// without closing the journal, and what it did about them.
type Recovery struct {
	// Segments are the segments recovered, each now closed.
	Segments []string
	// Adopted is the segment a single-file journal became, if Open adopted
	// one (adopt.go).
	Adopted string
	// Records is how many records recovery read: from each segment's last
	// seal on, not from its start.
	Records int64
	// TornBytes is how many bytes of unfinished last lines were cut.
	TornBytes int64
	// Interrupted lists the calls that had not ended and are now marked
	// Interrupted, segment by segment in order of first appearance.
	Interrupted []string
	// Fault is the first break found in what was read, nil when it held.
	// The segment is closed anyway and the fault stays in it for
	// `assent log --verify` to name.
	Fault *Fault
	// Problems are segments that could not be recovered, and why; they are
	// left as they are.
	Problems []string
}

// Clean reports whether Open found nothing to adopt or recover.
func (r Recovery) Clean() bool {
	return r.Adopted == "" && len(r.Segments) == 0 && len(r.Problems) == 0
}

// String says what Open found and did in one line, for assent's log.
func (r Recovery) String() string {
	if r.Clean() {
		return "nothing to recover"
	}
	var parts []string
	if r.Adopted != "" {
		parts = append(parts, "moved the single-file journal beside the directory into it as segment "+r.Adopted)
	}
	switch n := len(r.Segments); n {
	case 0:
	case 1:
		parts = append(parts, "closed segment "+r.Segments[0]+", whose process had ended without closing it")
	default:
		parts = append(parts, fmt.Sprintf("closed %d segments whose process had ended without closing them", n))
	}
	parts = append(parts, r.repairs()...)
	for _, p := range r.Problems {
		parts = append(parts, "could not recover "+p)
	}
	return strings.Join(parts, "; ")
}

// repairs are the changes made, in words.
func (r Recovery) repairs() []string {
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
	return parts
}

// recoverDead closes every segment whose lock file is there but unlocked:
// its process died. own is the caller's segment, never touched.
func recoverDead(dir, own string, key []byte) Recovery {
	var all Recovery
	l, err := listDir(dir)
	if err != nil {
		all.Problems = append(all.Problems, fmt.Sprintf("the journal directory: %v", err))
		return all
	}
	for _, s := range l.segments {
		if !s.lock || s.id == own {
			continue
		}
		lock, err := claimDead(dir, s.id)
		if err != nil {
			all.Problems = append(all.Problems, fmt.Sprintf("segment %s: %v", s.id, err))
			continue
		}
		if lock == nil {
			continue // live, or recovered by someone else meanwhile
		}
		one, err := recoverSegment(dir, probeParts(dir, s), key, own)
		if err != nil {
			all.Problems = append(all.Problems, fmt.Sprintf("segment %s: %v", s.id, err))
			lock.drop()
			continue
		}
		lock.release()
		all.Segments = append(all.Segments, s.id)
		all.Records += one.Records
		all.TornBytes += one.TornBytes
		all.Interrupted = append(all.Interrupted, one.Interrupted...)
		if all.Fault == nil {
			all.Fault = one.Fault
		}
	}
	return all
}

// probeParts adds the parts a segment gained after the directory was
// listed: its process may have rotated just before it died.
func probeParts(dir string, s segmentFiles) segmentFiles {
	for n := s.last() + 1; ; n++ {
		if _, err := os.Stat(inDir(dir, partName(s.id, n))); err != nil {
			return s
		}
		s.parts = append(s.parts, n)
	}
}

// recoverSegment closes a dead process's segment. From the last seal whose
// MAC holds it walks to the end, checking the chain and following the calls
// that seal listed as open; it cuts a torn last line, then appends a
// Recovered record saying what it found, an Interrupted record for each
// call left open, and a closing seal, syncs them and points the head file
// at that seal. A segment that already ends in its closing seal is left as
// it is (its process died after closing it, before removing its lock).
func recoverSegment(dir string, s segmentFiles, key []byte, by string) (Recovery, error) {
	var rec Recovery
	last := s.last()
	if last == 0 {
		return rec, nil // it died before its first file
	}
	path := inDir(dir, partName(s.id, last))
	f, err := os.OpenFile(path, os.O_RDWR|os.O_APPEND, 0)
	if err != nil {
		return rec, err
	}
	defer f.Close()
	st, err := findStart(dir, s, f, key)
	if err != nil {
		return rec, err
	}
	end, err := st.walk(f, last)
	if err != nil {
		return rec, err
	}
	rec.Records, rec.TornBytes, rec.Fault = st.chain.records, st.torn, st.chain.fault
	if rec.Fault != nil {
		rec.Fault.Segment = s.id
	}
	if st.torn > 0 {
		if err := f.Truncate(end); err != nil {
			return rec, fmt.Errorf("cut the torn line of %s: %w", path, err)
		}
	}
	w := newWriter(dir, s.id, key, Options{})
	w.f, w.part, w.size, w.seq, w.prev, w.open = f, last, end, st.chain.seq, st.chain.prev, st.open
	if st.closed == nil || st.torn > 0 {
		rec.Interrupted = st.open.ids()
		if end == 0 {
			// It died between creating the file and writing its first
			// record: the file begins as every file does.
			w.scratch = Record{Event: Opened, Segment: s.id, Part: last}
			if err := w.put(&w.scratch, false); err != nil {
				return rec, err
			}
		}
		if err := w.closeDead(rec, by); err != nil {
			return rec, err
		}
		if err := f.Sync(); err != nil {
			return rec, fmt.Errorf("sync %s: %w", path, err)
		}
	} else {
		w.sealed = st.closed
	}
	return rec, writeHead(dir, *w.sealed, key)
}

// closeDead appends what recovery adds to a dead segment.
func (w *writer) closeDead(rec Recovery, by string) error {
	why := append([]string{"its process ended without closing the journal"}, rec.repairs()...)
	why = append(why, "recovered by segment "+by)
	w.scratch = Record{Event: Recovered, Reason: strings.Join(why, "; "), TornBytes: rec.TornBytes}
	if err := w.put(&w.scratch, false); err != nil {
		return err
	}
	for _, c := range w.open.list() {
		w.scratch = Record{Call: c.Call, Event: Interrupted, Reason: interruptedReason(c.State, "died")}
		if err := w.put(&w.scratch, false); err != nil {
			return err
		}
	}
	return w.seal(Closed)
}

// interruptedReason says why a call was marked interrupted: its process
// "closed" the journal, or "died", with the call in the given state.
func interruptedReason(state Event, how string) string {
	when := "when its process closed the journal"
	if how == "died" {
		when = "when its process ended without closing the journal"
	}
	if state == Started {
		return "was running " + when + ": its outcome is unknown and it is not re-run"
	}
	return "had not started " + when + ": it never ran and is not re-run"
}
