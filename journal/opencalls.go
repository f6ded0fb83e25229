package journal

import (
	"cmp"
	"slices"
)

// openCalls follows the calls of one segment that have not ended: what a
// seal lists, what recovery marks interrupted, and what Close marks
// interrupted when the queue left any. It holds only calls in flight, so
// its size is the number of live calls, not the journal's.
type openCalls struct {
	m     map[string]openCall
	order int64
}

// openCall is a call seen with no ending yet.
type openCall struct {
	order int64 // when it was first seen, for listing in that order
	state Event // its last lifecycle event
}

// ends reports whether a record with these fields ends its call: a result,
// an interruption, a denial, or any record the writer gave an Ending.
func ends(event Event, decision Decision, ending Ending) bool {
	return event == Finished || event == Interrupted || (event == Decided && decision == Deny) || ending != ""
}

// track folds one record of a call into the set.
func (o *openCalls) track(call string, event Event, decision Decision, ending Ending) {
	if call == "" {
		return
	}
	if ends(event, decision, ending) {
		delete(o.m, call)
		return
	}
	if o.m == nil {
		o.m = make(map[string]openCall)
	}
	c, seen := o.m[call]
	if !seen {
		o.order++
		c.order = o.order
	}
	if event != Output && event != Edited {
		c.state = event
	}
	o.m[call] = c
}

// load starts the set from a seal's list.
func (o *openCalls) load(list []OpenCall) {
	for _, c := range list {
		o.track(c.Call, c.State, "", "")
	}
}

// list returns the open calls in the order they were first seen.
func (o *openCalls) list() []OpenCall {
	if len(o.m) == 0 {
		return nil
	}
	out := make([]OpenCall, 0, len(o.m))
	for id, c := range o.m {
		out = append(out, OpenCall{Call: id, State: c.state})
	}
	slices.SortFunc(out, func(a, b OpenCall) int { return cmp.Compare(o.m[a.Call].order, o.m[b.Call].order) })
	return out
}

// ids returns the open calls' ids in the order they were first seen.
func (o *openCalls) ids() []string {
	var out []string
	for _, c := range o.list() {
		out = append(out, c.Call)
	}
	return out
}
