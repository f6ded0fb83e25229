package ui

import (
	"cmp"
	"slices"

	"github.com/assent-sh/assent/exec"
	"github.com/assent-sh/assent/queue"
)

// entry is the console's copy of one call, its output, and what the
// console worked out about it for drawing.
type entry struct {
	call   queue.Call
	out    outputBuffer
	key    orderKey
	detail *detail // the detail pane's lines, for one width; nil when stale
	seen   seen    // what of the detail has been on screen
}

// running reports whether the call has a process, or is about to.
func (e *entry) running() bool {
	return e.call.Status == queue.Running || e.call.Status == queue.Approved
}

// Groups of the list, in order: pending calls, then those being checked
// or run, then history.
const (
	groupPending = iota
	groupActive
	groupEnded
)

// orderKey places a call in the list: by group; pending and active calls
// oldest first, history newest first.
type orderKey struct {
	group int
	ended int64 // the call's end, for history
	id    queue.ID
}

func keyOf(c *queue.Call) orderKey {
	switch {
	case c.Status == queue.Pending:
		return orderKey{groupPending, 0, c.ID}
	case c.Status.Ended():
		return orderKey{groupEnded, c.Ended.UnixNano(), c.ID}
	}
	return orderKey{groupActive, 0, c.ID}
}

// compareKeys orders two keys as the list shows them.
func compareKeys(a, b orderKey) int {
	switch {
	case a.group != b.group:
		return a.group - b.group
	case a.group != groupEnded:
		return cmp.Compare(a.id, b.id)
	case a.ended != b.ended:
		return cmp.Compare(b.ended, a.ended)
	}
	return cmp.Compare(b.id, a.id)
}

// calls is every call the console knows, in list order. The order is kept
// as calls change, one call at a time, and never sorted again whole.
type calls struct {
	byID     map[queue.ID]*entry
	order    []*entry // sorted by compareKeys
	shown    []*entry // order, filtered; order itself when no filter is set
	filter   string
	history  int
	maxLines int
	outBytes int // output kept for all calls
}

func newCalls(history, maxLines int) *calls {
	return &calls{byID: map[queue.ID]*entry{}, history: history, maxLines: maxLines}
}

// newEntry makes the console's entry for a call it has not seen.
func (cs *calls) newEntry(c queue.Call) *entry {
	e := &entry{}
	cs.init(e, c)
	return e
}

// init makes e the console's entry for call c.
func (cs *calls) init(e *entry, c queue.Call) {
	e.call, e.key = c, keyOf(&c)
	e.out.maxLines, e.out.call = cs.maxLines, &e.call
}

// put records the call's new state, keeps the list in order and the
// history within its bound, and reports whether the call was new.
func (cs *calls) put(c queue.Call) (*entry, bool) {
	e := cs.byID[c.ID]
	isNew := e == nil
	if isNew {
		e = cs.newEntry(c)
		cs.byID[c.ID] = e
	} else {
		if i, ok := cs.find(cs.order, e); ok {
			cs.order = slices.Delete(cs.order, i, i+1)
		}
		e.call, e.key, e.detail = c, keyOf(&c), nil
	}
	i, _ := slices.BinarySearchFunc(cs.order, e.key, func(x *entry, k orderKey) int { return compareKeys(x.key, k) })
	cs.order = slices.Insert(cs.order, i, e)
	cs.trim()
	cs.applyFilter()
	return e, isNew
}

// trim forgets the oldest history past the bound: the end of the list.
func (cs *calls) trim() {
	_, _, ended := cs.counts()
	for ; ended > cs.history; ended-- {
		last := cs.order[len(cs.order)-1]
		cs.outBytes -= last.out.size
		delete(cs.byID, last.call.ID)
		cs.order[len(cs.order)-1] = nil
		cs.order = cs.order[:len(cs.order)-1]
	}
}

// find returns the position of e in list, which is in list order.
func (cs *calls) find(list []*entry, e *entry) (int, bool) {
	i, _ := slices.BinarySearchFunc(list, e.key, func(x *entry, k orderKey) int { return compareKeys(x.key, k) })
	return i, i < len(list) && list[i] == e
}

// index returns the position of id among the shown calls, or -1.
func (cs *calls) index(id queue.ID) int {
	e := cs.byID[id]
	if e == nil {
		return -1
	}
	if i, ok := cs.find(cs.shown, e); ok {
		return i
	}
	return -1
}

// groupStart is the position of the first call of group g or a later one.
func (cs *calls) groupStart(g int) int {
	i, _ := slices.BinarySearchFunc(cs.order, g, func(x *entry, g int) int { return x.key.group - g })
	return i
}

// counts returns how many calls are pending, active and ended.
func (cs *calls) counts() (pending, running, done int) {
	active, ended := cs.groupStart(groupActive), cs.groupStart(groupEnded)
	return active, ended - active, len(cs.order) - ended
}

// firstPending returns the oldest pending call, or nil.
func (cs *calls) firstPending() *entry {
	if len(cs.order) > 0 && cs.order[0].key.group == groupPending {
		return cs.order[0]
	}
	return nil
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
