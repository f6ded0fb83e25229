// Package journal is assent's call log: append-only JSON lines, one record
// per step in the life of a call, each chained to the one before by a
// SHA-256 hash and sealed now and then with a keyed MAC, so that an edited,
// removed, reordered or cut record is evident.
//
// The journal has its own vocabulary and imports nothing from the rest of the
// project: the queue translates its calls, decisions and results into Records.
// A Journal writes (Open, Append, Wait, Close); a Reader streams records and
// a CallReader streams calls for `assent log` and replay; Verify walks and
// checks everything.
//
// # One segment per process
//
// A journal is a directory. Every process that opens it writes a segment of
// its own: a chain of records with seq from 1, in one or more files. Readers
// merge the segments in time order. The other way to let several processes
// share a journal, one file appended under a lock with the chain continued,
// was weighed and refused:
//
//   - A shared file puts a cross-process lock, and a re-read of the file's
//     end, inside every append; one stalled process stalls every other.
//     Segments share nothing on the write path: group commit, fsync and a
//     failed disk stay one process's affair.
//   - Recovery must mark the calls of a dead writer interrupted. In a shared
//     file a new process cannot tell a dead process's call from one that a
//     live process is still running. A segment's lock tells exactly that.
//   - Rotation, seals and opening fast all work per segment, unchanged: a
//     new process starts a new chain and reads nothing old, except the
//     last seal of a segment whose process died.
//
// The cost is on the reading side: many small files over time, merged by
// record time (two records of different processes with the same time are
// ordered by segment name).
//
// # On disk
//
//	DIR/                          0700
//	DIR/key                       0600  the key: masks secrets, and (derived) seals
//	DIR/SEGMENT.PART.jsonl        0600  a segment's files, PART from 1
//	DIR/SEGMENT.head              0600  the segment's latest sealed head
//	DIR/SEGMENT.lock              0600  exists, flock(2)ed, while a process writes SEGMENT
//
// SEGMENT is the UTC second the process opened the journal and a random
// suffix (20261201T150405Z-9f2c4b7a1e0d), so names sort by age. Every file
// begins with an Opened record naming its segment and part; a file after the
// first continues the chain of the one before. A file that would pass
// Options.MaxSize is sealed and the next one begun.
//
// A single-file journal from before segments (`journal.jsonl`) stays
// readable and verifiable as it is. Open moves one that sits beside the
// directory, named like it with ".jsonl" (the old default location), into
// the directory as a segment of its own, with its key, the first time it
// runs; see adopt.go.
//
// # Seals, and what they prove
//
// A seal is a record whose MAC (HMAC-SHA-256 under a key derived from the
// journal's key) covers its segment, its seq and the hash of the record
// before it, so it vouches for the whole chain up to it. One is written
// every Options.SealEvery records or Options.SealInterval, when a file is
// full, and when the journal closes (Closed). After each seal is on disk the
// segment's head file is replaced with the seal's seq and hash, itself
// under a MAC. Verify then shows:
//
//   - a record changed, removed, inserted or reordered before a seal, even
//     with every hash after it recomputed: the seal's MAC no longer matches;
//   - records cut from a segment's end: its head file names a record the
//     files no longer hold, or a clean close that its files no longer end in;
//   - a missing file: a gap in a segment's parts, or a chain that does not
//     continue across files.
//
// It cannot show: changes to the records after a segment's last seal (at
// most SealEvery records or SealInterval of them); anything done by whoever
// can read the key, who can forge seals and head files; a segment deleted
// together with its head file; or an older copy of a head file put back with
// the files cut to match it. `assent log --head` prints every segment's head
// so it can be kept elsewhere and compared.
//
// Opening never walks old chains: a process starts its own segment, and a
// dead process's segment is recovered from its last valid seal, found by
// reading the file backwards (see recover.go).
package journal
