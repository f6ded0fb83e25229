package ui

import (
	"slices"

	"github.com/assent-sh/assent/exec"
	"github.com/assent-sh/assent/queue"
)

// entry is the console's copy of one call and its output.
type entry struct {
	call queue.Call
	out  *outputBuffer
}

// running reports whether the call has a process, or is about to.
func (e *entry) running() bool {
	return e.call.Status == queue.Running || e.call.Status == queue.Approved
}

// group orders the list: pending calls, then those being checked or run,
// then history.
func (e *entry) group() int {
	switch {
	case e.call.Status == queue.Pending:
		return 0
	case e.call.Status.Ended():
		return 2
	}
	return 1
}

// calls is every call the console knows, in list order.
type calls struct {
	byID     map[queue.ID]*entry
	order    []*entry // pending oldest first, then active, then history newest first
	shown    []*entry // order, filtered
	filter   string
	history  int
	maxLines int
	outBytes int // output kept for all calls
}

func newCalls(history, maxLines int) *calls {
	return &calls{byID: map[queue.ID]*entry{}, history: history, maxLines: maxLines}
}

// put records the call's new state and reports whether it was new.
func (cs *calls) put(c queue.Call) (*entry, bool) {
	if e := cs.byID[c.ID]; e != nil {
		e.call = c
		e.out.secrets = c.Secrets
		return e, false
	}
	e := &entry{call: c, out: newOutputBuffer(cs.maxLines, c.Secrets)}
	cs.byID[c.ID] = e
	return e, true
}

// maxTotalOutput bounds the output kept for all calls together; past it
// the oldest ended calls lose theirs first.
const maxTotalOutput = 64 << 20

// output adds a chunk of a call's output.
func (cs *calls) output(id queue.ID, ch *exec.Chunk, skipped int64) {
	e := cs.byID[id]
	if e == nil {
		return
	}
	before := e.out.size
	e.out.skipped(skipped)
	if ch != nil {
		e.out.add(ch.Stream, ch.Data)
	}
	cs.outBytes += e.out.size - before
	if cs.outBytes > maxTotalOutput {
		cs.shed(e)
	}
}

// shed drops the output of the oldest ended calls until the total is
// under its bound again; keep is the call being written to.
func (cs *calls) shed(keep *entry) {
	for i := len(cs.order) - 1; i >= 0 && cs.outBytes > maxTotalOutput; i-- {
		e := cs.order[i]
		if e == keep || !e.call.Status.Ended() || e.out.size == 0 {
			continue
		}
		cs.outBytes -= e.out.size
		e.out.clear()
		e.out.note("output dropped to keep the console's memory bounded")
		cs.outBytes += e.out.size
	}
}

// sort rebuilds the list order, forgets the oldest history past the
// bound, and applies the filter.
func (cs *calls) sort() {
	cs.order = cs.order[:0]
	for _, e := range cs.byID {
		cs.order = append(cs.order, e)
	}
	slices.SortFunc(cs.order, func(a, b *entry) int {
		if ga, gb := a.group(), b.group(); ga != gb {
			return ga - gb
		}
		if a.group() == 2 {
			if c := b.call.Ended.Compare(a.call.Ended); c != 0 {
				return c
			}
			return int(b.call.ID - a.call.ID)
		}
		return int(a.call.ID - b.call.ID)
	})
	ended := 0
	kept := cs.order[:0]
	for _, e := range cs.order {
		if e.group() == 2 {
			if ended++; ended > cs.history {
				cs.outBytes -= e.out.size
				delete(cs.byID, e.call.ID)
				continue
			}
		}
		kept = append(kept, e)
	}
	cs.order = kept
	cs.applyFilter()
}

// index returns the position of id among the shown calls, or -1.
func (cs *calls) index(id queue.ID) int {
	return slices.IndexFunc(cs.shown, func(e *entry) bool { return e.call.ID == id })
}

// counts returns how many calls are pending, active and ended.
func (cs *calls) counts() (pending, running, done int) {
	for _, e := range cs.order {
		switch e.group() {
		case 0:
			pending++
		case 1:
			running++
		default:
			done++
		}
	}
	return
}

// firstPending returns the oldest pending call, or nil.
func (cs *calls) firstPending() *entry {
	for _, e := range cs.order {
		if e.group() == 0 {
			return e
		}
	}
	return nil
}
