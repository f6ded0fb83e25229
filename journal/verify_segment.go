package journal

import (
	"fmt"
	"os"
	"slices"
)

// segmentCheck is the walk of one segment's files by Verify.
type segmentCheck struct {
	dir string
	s   segmentFiles
	key []byte // nil: seals not checked
	rep *Report
	sr  SegmentReport
	c   chain

	head        *headFile // read before the files, so it is never ahead of what is read
	hashAtHead  string    // the hash of the record the head names, once walked
	unsealed    bool      // the first file begins with no Opened record
	last        head      // the last record
	lastHolds   bool      // the last record is a seal that holds
	afterClosed bool      // a record followed a closing seal
	chainShown  bool      // the chain's fault is in the report
}

// verifySegment walks every file of a segment in order as one chain and
// checks its seals, its files and its head file.
func verifySegment(dir string, s segmentFiles, key []byte, rep *Report) (SegmentReport, error) {
	v := &segmentCheck{dir: dir, s: s, key: key, rep: rep, sr: SegmentReport{Segment: s.id}}
	if s.head {
		h, err := readHead(dir, s.id)
		if err != nil {
			v.fault(Truncated, 0, fmt.Sprintf("its head file cannot be read (%v): whether records were cut from its end cannot be checked", err))
		} else {
			v.head = &h
		}
	}
	// A live segment may have rolled to a new file since the listing (the
	// head just read names nothing beyond the files there are now), and a
	// listing taken while files are created may miss some: what it lacks
	// is looked for by name.
	s = fillParts(dir, probeParts(dir, s))
	v.s = s
	prev := 0
	for i, p := range s.parts {
		name := partName(s.id, p)
		v.sr.Files = append(v.sr.Files, name)
		gap := p != prev+1
		if gap {
			v.missing(prev, p)
		}
		prev = p
		if err := v.walkFile(name, p, gap, i == len(s.parts)-1); err != nil {
			return v.sr, err
		}
	}
	v.sr.Records, v.sr.Seq, v.sr.Head = v.c.records, v.c.seq, v.c.prev
	v.finish()
	return v.sr, nil
}

func (v *segmentCheck) fault(kind FaultKind, seq int64, problem string) {
	v.rep.addFault(Fault{Kind: kind, Segment: v.s.id, Seq: seq, Problem: problem})
}

// missing reports the files absent between parts prev and p.
func (v *segmentCheck) missing(prev, p int) {
	what := fmt.Sprintf("file part %d is missing", prev+1)
	if p-prev > 2 {
		what = fmt.Sprintf("file parts %d to %d are missing", prev+1, p-1)
	}
	v.fault(MissingFile, 0, what+fmt.Sprintf(" (%s and the records in it)", partName(v.s.id, prev+1)))
}

// walkFile checks one file of the segment. After a missing file the chain
// takes up from the first record of this one, so the gap is reported once.
func (v *segmentCheck) walkFile(name string, part int, gap, last bool) error {
	f, err := os.Open(inDir(v.dir, name))
	if err != nil {
		return err
	}
	defer f.Close()
	v.c.file, v.c.line, v.c.resync = name, 0, gap
	lines := newLineReader(f)
	err = v.c.walk(lines, func(h head, ok bool, line []byte) error {
		if v.c.fault != nil && !v.chainShown {
			v.chainShown = true
			f := *v.c.fault
			f.Segment = v.s.id
			v.rep.addFault(f)
		}
		v.check(h, ok, line, part, lines.lines == 1)
		return nil
	})
	if err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	if torn := lines.torn(); torn > 0 && last {
		v.sr.TornBytes = torn
	} else if torn > 0 || (!last && !(v.lastHolds && v.last.Event == Sealed)) {
		v.rep.addFault(Fault{Kind: Truncated, Segment: v.s.id, File: name,
			Problem: "the file does not end with the seal written when a file is full: records were cut from its end"})
	}
	return nil
}

// check looks at one record beyond its place in the chain.
func (v *segmentCheck) check(h head, ok bool, line []byte, part int, first bool) {
	if !ok {
		v.last, v.lastHolds = head{}, false
		return
	}
	if first {
		switch {
		case h.Event == Opened && (h.Segment != v.s.id || h.Part != part):
			v.rep.addFault(Fault{Kind: BrokenChain, Segment: v.s.id, File: v.c.file, Seq: h.Seq, Line: 1,
				Problem: fmt.Sprintf("it names segment %s part %d: the file was renamed or copied", h.Segment, h.Part)})
		case h.Event != Opened && part == 1 && h.Seq == 1:
			v.unsealed = true // a journal from before segments, adopted
		case h.Event != Opened:
			v.rep.addFault(Fault{Kind: BrokenChain, Segment: v.s.id, File: v.c.file, Seq: h.Seq, Line: 1,
				Problem: "the file does not begin with its opened record"})
		}
	}
	if v.last.Event == Closed && !v.afterClosed {
		v.afterClosed = true
		v.rep.addFault(Fault{Kind: BrokenChain, Segment: v.s.id, File: v.c.file, Seq: h.Seq, Line: v.c.line,
			Problem: "it follows the segment's closing seal: records were added after it closed"})
	}
	v.last, v.lastHolds = h, false
	if h.Event == Sealed || h.Event == Closed {
		v.checkSeal(h, line)
	}
	if v.head != nil && h.Seq == v.head.Seq {
		v.hashAtHead = v.c.prev
	}
}

func (v *segmentCheck) checkSeal(h head, line []byte) {
	if v.key == nil {
		v.lastHolds = true // not checkable; the note says so
		return
	}
	if sealOf(h, line, v.s.id, v.key) {
		v.sr.Seals++
		v.lastHolds = true
		return
	}
	v.rep.addFault(Fault{Kind: Rewritten, Segment: v.s.id, File: v.c.file, Seq: h.Seq, Line: v.c.line, Problem: sealBroken})
}

// fillParts adds the parts between 1 and the segment's last that the
// listing lacked but that exist: only a part no stat finds is missing.
func fillParts(dir string, s segmentFiles) segmentFiles {
	if len(s.parts) == s.last() {
		return s
	}
	var parts []int
	for n := 1; n <= s.last(); n++ {
		if slices.Contains(s.parts, n) || exists(inDir(dir, partName(s.id, n))) {
			parts = append(parts, n)
		}
	}
	s.parts = parts
	return s
}
