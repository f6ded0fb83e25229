//go:build linux

package exec

import "golang.org/x/sys/unix"

// sandboxRules is one sandbox as the kernel holds it, built once and shared
// by every call with the same sandbox: the Landlock ruleset, the network
// namespace to join, whether sockets are filtered, and what it confines.
// A child applies it to itself between clone and exec; the descriptors
// must stay open until it has, so each start holds a reference.
type sandboxRules struct {
	owner *sandboxes
	key   string
	ids   []fileID // of the sandbox's paths when the rules were made

	landlock int  // the ruleset, or -1 where there is no Landlock
	netns    int  // the empty network namespace (a descriptor of its own), or -1
	filter   bool // install the socket filter

	conf Confinement
	// missing says what of the sandbox this system could not apply; empty
	// when all of it holds.
	missing string

	// Guarded by owner.mu.
	refs    int    // starts holding the descriptors
	retired bool   // no new starts; the descriptors close once refs is 0
	closed  bool   // they are closed
	used    uint64 // when last handed out, for choosing what to retire
}

// release gives back a start's hold, from sandboxes.rulesFor.
func (sr *sandboxRules) release() {
	sr.owner.mu.Lock()
	defer sr.owner.mu.Unlock()
	sr.refs--
	sr.closeIfIdle()
}

// retire stops new starts; the descriptors close once the last start
// holding them is done. Called with owner.mu held.
func (sr *sandboxRules) retire() {
	sr.retired = true
	sr.closeIfIdle()
}

// closeIfIdle closes a retired sandbox's descriptors once no start holds
// them. Called with owner.mu held.
func (sr *sandboxRules) closeIfIdle() {
	if !sr.retired || sr.refs > 0 || sr.closed {
		return
	}
	sr.closed = true
	for _, fd := range []int{sr.landlock, sr.netns} {
		if fd >= 0 {
			unix.Close(fd)
		}
	}
}
