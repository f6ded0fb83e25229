package ui

import (
	"slices"

	"github.com/assent-sh/assent/queue"
)

// load starts the list from a snapshot of the queue, replacing what it
// held. Only what the list keeps becomes an entry: every call that waits
// or runs, and the newest history calls, chosen without sorting the rest;
// the entries kept are sorted by their small keys and made in one block,
// so a snapshot of many calls costs little more than reading it.
func (cs *calls) load(snap []queue.Call) {
	kept := make([]ranked, 0, min(len(snap), cs.history+64))
	newest := &newestEnded{}
	// A snapshot lists calls oldest first: read from the newest, and the
	// heap fills with the history kept and is seldom changed after.
	for i := len(snap) - 1; i >= 0; i-- {
		c := &snap[i]
		k := keyOf(c)
		switch {
		case !c.Status.Ended():
			kept = append(kept, ranked{k, i})
		case cs.history <= 0:
		case len(newest.items) < cs.history:
			newest.push(ranked{k, i})
		case compareKeys(k, newest.items[0].key) < 0:
			// Newer than the oldest kept: it takes that one's place.
			newest.items[0] = ranked{k, i}
			newest.down(0)
		}
	}
	kept = append(kept, newest.items...)
	slices.SortFunc(kept, func(a, b ranked) int { return compareKeys(a.key, b.key) })
	block := make([]entry, len(kept))
	cs.byID = make(map[queue.ID]*entry, len(kept))
	cs.order = make([]*entry, len(kept))
	cs.outBytes = 0
	for i, r := range kept {
		e := &block[i]
		cs.init(e, snap[r.at])
		cs.order[i] = e
		cs.byID[e.call.ID] = e
	}
	cs.applyFilter()
}

// ranked is a history call's place in the list and its index in the
// snapshot.
type ranked struct {
	key orderKey
	at  int
}

// newestEnded is a heap of the newest history calls seen so far, with the
// oldest of them on top, to be replaced by any newer one. (It is written
// out rather than built on container/heap, whose interface would box
// every item.)
type newestEnded struct{ items []ranked }

// below reports whether item i belongs below item j: j is further down
// the list, so older.
func (h *newestEnded) below(i, j int) bool {
	return compareKeys(h.items[i].key, h.items[j].key) < 0
}

func (h *newestEnded) push(r ranked) {
	h.items = append(h.items, r)
	for i := len(h.items) - 1; i > 0; {
		parent := (i - 1) / 2
		if !h.below(parent, i) {
			return
		}
		h.items[i], h.items[parent] = h.items[parent], h.items[i]
		i = parent
	}
}

func (h *newestEnded) down(i int) {
	for {
		top, l, r := i, 2*i+1, 2*i+2
		if l < len(h.items) && h.below(top, l) {
			top = l
		}
		if r < len(h.items) && h.below(top, r) {
			top = r
		}
		if top == i {
			return
		}
		h.items[i], h.items[top] = h.items[top], h.items[i]
		i = top
	}
}
