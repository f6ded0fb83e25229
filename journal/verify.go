package journal

import (
	"fmt"
	"os"
	"path/filepath"
)

// Report is what verifying a journal found.
type Report struct {
	// Records is how many complete lines decoded as records, in all files.
	Records int64 `json:"records"`
	// Seals is how many seals were checked and hold.
	Seals int64 `json:"seals"`
	// Head is, for a single file, the hash of its last record.
	Head string `json:"head,omitempty"`
	// TornBytes is the length of unfinished last lines. It is not a
	// fault: a process may be in the middle of appending, and the next
	// Open cuts what a dead one left.
	TornBytes int64 `json:"torn_bytes,omitempty"`
	// Segments report each segment of a directory, oldest first.
	Segments []SegmentReport `json:"segments,omitempty"`
	// Faults is everything that does not hold, in the order found.
	Faults []Fault `json:"faults,omitempty"`
	// Notes say what was not checked, and why.
	Notes []string `json:"notes,omitempty"`
	// Proves and CannotProve say what an intact report shows about the
	// journal, and what no verification of it can.
	Proves      []string `json:"proves"`
	CannotProve []string `json:"cannot_prove"`
}

// SegmentState says how a segment stands.
type SegmentState string

const (
	// SegmentClosed ends in its closing seal.
	SegmentClosed SegmentState = "closed"
	// SegmentOpen is being written by a live process.
	SegmentOpen SegmentState = "open"
	// SegmentUnclosed was left by a process that died; the next Open
	// recovers and closes it.
	SegmentUnclosed SegmentState = "unclosed"
	// SegmentUnsealed was written before seals, or never sealed at all.
	SegmentUnsealed SegmentState = "unsealed"
	// SegmentCut does not end as it must: see the report's faults.
	SegmentCut SegmentState = "cut"
)

// SegmentReport is what verifying one segment found.
type SegmentReport struct {
	Segment string       `json:"segment"`
	Files   []string     `json:"files"`
	State   SegmentState `json:"state"`
	Records int64        `json:"records"`
	Seals   int64        `json:"seals"`
	// Seq and Head are the segment's last record's seq and hash.
	Seq       int64  `json:"seq"`
	Head      string `json:"head"`
	TornBytes int64  `json:"torn_bytes,omitempty"`
}

// Intact reports whether nothing failed to hold.
func (r Report) Intact() bool { return len(r.Faults) == 0 }

// maxFaults bounds a report on a badly damaged journal.
const maxFaults = 100

func (r *Report) addFault(f Fault) {
	if len(r.Faults) < maxFaults {
		r.Faults = append(r.Faults, f)
	}
}

// Verify walks every record of the journal at path, a directory or a
// single file, without changing anything: every chain, every seal, every
// file of every segment, and every head file. The error is for a journal
// that could not be read; what does not hold is in the Report's Faults.
func Verify(path string) (Report, error) {
	path, dir, err := locate(path)
	if err != nil {
		return Report{}, err
	}
	if !dir {
		return verifyFile(path)
	}
	return verifyDir(path)
}

// verifyDir verifies each segment of a journal directory.
func verifyDir(dir string) (rep Report, err error) {
	l, err := listDir(dir)
	if err != nil {
		return rep, err
	}
	keyPath := inDir(dir, keyName)
	key, err := readSealKey(keyPath)
	if err != nil {
		key = nil
		rep.Notes = append(rep.Notes, fmt.Sprintf("seals and head files were not checked, only the unkeyed chain: %v", err))
	}
	defer rep.limits(key != nil, keyPath)
	for _, s := range l.segments {
		sr, err := verifySegment(dir, s, key, &rep)
		if err != nil {
			return rep, err
		}
		rep.Segments = append(rep.Segments, sr)
		rep.Records += sr.Records
		rep.Seals += sr.Seals
		rep.TornBytes += sr.TornBytes
	}
	for _, name := range l.others {
		rep.Notes = append(rep.Notes, fmt.Sprintf("%s is not a journal file and was not checked", name))
	}
	if legacy := legacyFile(dir); exists(legacy) {
		rep.Notes = append(rep.Notes, fmt.Sprintf("%s, a single-file journal not yet moved into the directory, "+
			"was not checked: verify it with --journal %s", legacy, legacy))
	}
	return rep, nil
}

// verifyFile verifies a single file: a journal from before directories, or
// one file of a segment checked alone.
func verifyFile(path string) (rep Report, err error) {
	f, err := os.Open(path)
	if err != nil {
		return rep, err
	}
	defer f.Close()
	seg, _, _ := parsePart(filepath.Base(path))
	keyPath := inDir(filepath.Dir(path), keyName)
	key, _ := readSealKey(keyPath)
	defer func() { rep.limits(rep.Seals > 0, keyPath) }()
	c := chain{file: filepath.Base(path)}
	lines := newLineReader(f)
	err = c.walk(lines, func(h head, ok bool, line []byte) error {
		if h.Event == Opened && lines.lines == 1 {
			seg = h.Segment
		}
		if ok && (h.Event == Sealed || h.Event == Closed) && key != nil {
			if sealOf(h, line, seg, key) {
				rep.Seals++
			} else {
				rep.addFault(Fault{Kind: Rewritten, File: c.file, Seq: h.Seq, Line: c.line, Problem: sealBroken})
			}
		}
		return nil
	})
	if err != nil {
		return rep, err
	}
	rep.Records, rep.Head, rep.TornBytes = c.records, c.prev, lines.torn()
	if c.fault != nil {
		rep.Faults = append([]Fault{*c.fault}, rep.Faults...)
	}
	switch {
	case rep.Seals == 0:
		rep.Notes = append(rep.Notes, "the file has no seals (it was written before journals were sealed): "+
			"its chain shows that nothing changed before its last record, but not that no records were cut "+
			"from its end, nor that the whole file was not rewritten")
	case seg != "":
		rep.Notes = append(rep.Notes, fmt.Sprintf("this is one file of segment %s, checked alone: verify its "+
			"directory to check its other files and its head file", seg))
	}
	return rep, nil
}

// sealBroken is what a seal that does not hold means.
const sealBroken = "its seal does not match the chain before it: records before it were rewritten " +
	"(their hashes recomputed), or the seal was made without the key"
