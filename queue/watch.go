package queue

// Watcher receives the events of one call, as the queue makes them: the
// front end that submitted the call uses it to follow its own call (MCP
// progress notifications) without a subscription, which would snapshot the
// whole queue and see every other call too.
//
// It is called outside the queue's lock, in the order the call's events
// happen, from the goroutine making each change: Submit's for lifecycle
// events, the runner's output callback for EventOutput. It must return
// quickly, like the runner's output callback. An output event's chunk is
// lent for the duration of the call: a watcher that keeps the bytes copies
// them.
type Watcher func(Event)

// notify hands an event to the call's watcher, if it has one.
func (e *entry) notify(ev Event) {
	if e.watch != nil {
		e.watch(ev)
	}
}
