package journal

import (
	"fmt"
	"os"
)

// finish decides how the segment stands and checks its end against its
// head file: whether records were cut from the end is what the chain alone
// cannot tell.
func (v *segmentCheck) finish() {
	closed := v.last.Event == Closed && v.lastHolds
	switch {
	case closed:
		v.sr.State = SegmentClosed
	case v.s.lock && segmentLive(v.dir, v.s.id):
		v.sr.State = SegmentOpen
	case v.s.lock:
		v.sr.State = SegmentUnclosed
	case v.unsealed && v.sr.Seals == 0 && v.head == nil:
		v.sr.State = SegmentUnsealed
		v.rep.Notes = append(v.rep.Notes, fmt.Sprintf("segment %s has no seals (it was written before journals "+
			"were sealed): its chain shows that nothing changed before its last record, but not that no records "+
			"were cut from its end", v.s.id))
	default:
		v.sr.State = SegmentCut
	}
	switch {
	case v.head != nil && !v.checkHead(*v.head, closed):
	case v.sr.State == SegmentCut:
		v.fault(Truncated, v.c.seq, "the segment does not end with its closing seal, and no process is writing it: "+
			"records were cut from its end")
	case v.head == nil && !v.s.head && closed && !v.s.lock:
		v.fault(Truncated, 0, "its head file is missing: whether records were cut from its end cannot be checked")
	}
}

// checkHead compares the head file with the records walked, and reports
// whether it holds.
func (v *segmentCheck) checkHead(h headFile, closed bool) bool {
	switch {
	case v.key != nil && !h.holds(v.key):
		v.fault(Rewritten, h.Seq, "its head file's MAC does not match: the head file was changed")
		return false
	case h.Segment != v.s.id:
		v.fault(Rewritten, h.Seq, fmt.Sprintf("its head file names segment %s: it was copied from another", h.Segment))
		return false
	case h.Seq > v.c.seq:
		what := fmt.Sprintf("its head file names record %d (in %s), but its files end at record %d: records were cut from its end",
			h.Seq, partName(v.s.id, h.Part), v.c.seq)
		if h.Part > v.s.last() {
			what += fmt.Sprintf(", and every file after %s is gone", partName(v.s.id, v.s.last()))
		}
		v.fault(Truncated, h.Seq, what)
		return false
	case v.hashAtHead != h.Hash:
		v.fault(Rewritten, h.Seq, fmt.Sprintf("record %d is not the one its head file names: it was rewritten", h.Seq))
		return false
	case h.Closed && (!closed || v.c.seq != h.Seq):
		v.fault(Truncated, h.Seq, fmt.Sprintf("its head file says it closed at record %d, but its files do not end "+
			"with that closing seal", h.Seq))
		return false
	}
	return true
}

// segmentLive reports whether a process holds the segment's lock. Taking
// the lock to see is harmless: it is let go at once.
func segmentLive(dir, seg string) bool {
	f, err := os.OpenFile(inDir(dir, lockName(seg)), os.O_RDWR, 0)
	if err != nil {
		return false
	}
	defer f.Close()
	held, err := lockExclusive(f)
	return err == nil && held
}
