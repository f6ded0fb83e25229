package journal

import (
	"fmt"
	"os"
	"time"
)

// writer appends one segment's records: it keeps the chain's end, the file
// being written and the calls in flight, writes seals, and rotates to a new
// file when one is full. It is not safe for concurrent use: a Journal holds
// its lock around it, and recovery uses one alone.
type writer struct {
	dir, segment string
	key          []byte           // the seal key
	wrap         func(File) File  // Options.WrapFile
	maxSize      int64            // rotate past this; 0 never
	now          func() time.Time //

	f    File
	part int
	size int64 // bytes in f
	bare int64 // bytes in f when it held only its opened record
	seq  int64 // last seq written
	prev string
	enc  *lineEncoder
	open openCalls

	// held are lines encoded while holding, not yet written (see hold).
	held    []byte
	holding bool

	unsealed int        // records since the last seal
	sealed   *headFile  // the latest seal written, for the head file once synced
	retired  []openFile // files rotated away, for the flusher to sync and close
	scratch  Record     // the writer's own records, built here
	fileErr  *fileError // set when a write failed: the writer is unusable
}

// openFile is a file being written, with its name.
type openFile struct {
	f    File
	path string
}

// fileError is a failed write or sync: unlike a record that cannot be
// encoded, it leaves the file in an unknown state, and fails the journal.
type fileError struct {
	op   string
	path string
	err  error
}

func (e *fileError) Error() string { return e.op + " " + e.path + ": " + e.err.Error() }
func (e *fileError) Unwrap() error { return e.err }

func newWriter(dir, segment string, key []byte, opts Options) *writer {
	return &writer{dir: dir, segment: segment, key: key, wrap: opts.WrapFile, maxSize: opts.MaxSize,
		now: time.Now, enc: newLineEncoder()}
}

// path is the file being written.
func (w *writer) path() string { return inDir(w.dir, partName(w.segment, w.part)) }

// create begins part n of the segment with its Opened record.
func (w *writer) create(part int) error {
	path := inDir(w.dir, partName(w.segment, part))
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL|os.O_APPEND, 0o600)
	if err != nil {
		return &fileError{"create", path, err}
	}
	var file File = f
	if w.wrap != nil {
		file = w.wrap(f)
	}
	w.f, w.part, w.size = file, part, 0
	w.scratch = Record{Event: Opened, Segment: w.segment, Part: part}
	if err := w.put(&w.scratch, false); err != nil {
		return err
	}
	w.bare = w.size
	return nil
}

// append gives r its place in the chain and writes its line, first
// rotating when the line would overfill the file.
func (w *writer) append(r *Record) error { return w.put(r, w.maxSize > 0) }

// put writes r, rotating first if mayRotate and the file is full. Seals
// and Opened records never rotate: each belongs to the file it is in.
func (w *writer) put(r *Record, mayRotate bool) error {
	if w.fileErr != nil {
		return w.fileErr
	}
	line, err := w.encode(r)
	if err != nil {
		return err
	}
	if mayRotate && w.size+int64(len(line)) > w.maxSize && w.size > w.bare {
		if err := w.rotate(); err != nil {
			return err
		}
		if line, err = w.encode(r); err != nil {
			return err
		}
	}
	if w.holding {
		w.held = append(w.held, line...)
	} else if err := w.writeLines(line); err != nil {
		return err
	}
	w.size += int64(len(line))
	w.seq, w.prev = r.Seq, r.Hash
	w.open.track(r.Call, r.Event, r.Decision, r.Ending)
	if !r.Event.bookkeeping() {
		w.unsealed++
	}
	return nil
}

// writeLines writes lines to the file being written.
func (w *writer) writeLines(lines []byte) error {
	if _, err := w.f.Write(lines); err != nil {
		w.fileErr = &fileError{"write", w.path(), err}
		return w.fileErr
	}
	return nil
}

// hold keeps the lines of the records put from now on, to be written at
// once by release. The chain and the file's size count them as written.
func (w *writer) hold() { w.holding = true }

// release writes the lines held and stops holding.
func (w *writer) release() error {
	w.holding = false
	return w.writeHeld()
}

// maxHeldKept is the largest buffer of held lines kept for the next batch;
// a larger one (a batch with a long stdin, say) goes once written.
const maxHeldKept = 64 << 10

// writeHeld writes the lines held so far, to the file they belong to.
func (w *writer) writeHeld() error {
	defer func() {
		w.held = w.held[:0]
		if cap(w.held) > maxHeldKept {
			w.held = nil
		}
	}()
	switch {
	case w.fileErr != nil:
		return w.fileErr
	case len(w.held) == 0:
		return nil // not w.fileErr: a nil *fileError is a non-nil error
	}
	return w.writeLines(w.held)
}

// encode fills r's chain fields and returns its line, valid until the next
// encode.
func (w *writer) encode(r *Record) ([]byte, error) {
	r.Seq, r.Time, r.Prev = w.seq+1, w.now().UTC(), w.prev
	hash, err := w.enc.encode(r)
	if err != nil {
		return nil, fmt.Errorf("journal cannot encode %s record of call %q: %w", r.Event, r.Call, err)
	}
	r.Hash = hash
	return w.enc.line(), nil
}

// seal writes a seal (event Sealed or Closed) over the chain so far. Its
// MAC covers its seq and prev, which are known before it is encoded.
func (w *writer) seal(event Event) error {
	w.scratch = Record{Event: event, Open: w.open.list(), Seq: w.seq + 1, Prev: w.prev}
	w.scratch.Seal = sealMAC(w.key, w.segment, &w.scratch)
	if err := w.put(&w.scratch, false); err != nil {
		return err
	}
	w.unsealed = 0
	w.sealed = &headFile{Segment: w.segment, Part: w.part, Seq: w.seq, Hash: w.prev, Closed: event == Closed}
	return nil
}

// rotate seals the full file, hands it to the flusher to sync and close,
// and begins the next part. The old file stays open until then: the
// flusher may be syncing it right now.
func (w *writer) rotate() error {
	if err := w.seal(Sealed); err != nil {
		return err
	}
	if err := w.writeHeld(); err != nil { // the full file's last lines, the seal among them
		return err
	}
	w.retired = append(w.retired, openFile{w.f, w.path()})
	return w.create(w.part + 1)
}
