//go:build linux

package exec

import "runtime"

// spawner is a thread that carries one sandbox and forks every child that
// runs in it.
//
// Landlock, no_new_privs, seccomp filters, the capability bounding set and
// the network namespace all belong to a thread, and a child forked from a
// thread inherits them; none can be taken back. So the runner locks a
// goroutine to a thread of its own, confines that thread, and hands it
// every start for that sandbox; assent's other threads stay free, and the
// thread ends with its goroutine, never to run anything else. One thread
// per sandbox, kept, because handing a start to a waiting thread costs
// tens of microseconds, while confining a fresh thread per call and
// throwing it away costs more (the runtime must make a new thread for each)
// and would rebuild the namespace join and filters every time.
//
// Children of one spawner share its Landlock domain, so they may signal
// one another; processes of other sandboxes and of assent they may not.
type spawner struct {
	owner *sandboxes
	key   string
	ids   []fileID // of the sandbox's paths when its rules were made
	conf  Confinement
	// missing says what of the sandbox this system could not apply; empty
	// when all of it holds.
	missing string
	reqs    chan *spawnReq

	// Guarded by owner.mu.
	refs    int    // starts handed out and not yet released
	retired bool   // no new starts; the thread ends once refs is 0
	ended   bool   // reqs is closed
	used    uint64 // when last handed out, for choosing whom to retire
}

// confineThread is what a spawner's thread does to itself before its
// first start; it reports what it applied.
type confineThread func() (applied threadParts, err error)

// threadParts says which parts of a sandbox a thread carries.
type threadParts struct {
	landlock, netns, seccomp, caps bool
}

// run is the spawner's goroutine: it locks itself to its thread for good,
// confines it, reports how that went, and then forks what it is handed
// until it is retired.
func (sp *spawner) run(reqs <-chan *spawnReq, confine confineThread, ready chan<- threadResult) {
	runtime.LockOSThread()
	// No UnlockOSThread: the thread is confined for good, and ends with
	// this goroutine.
	applied, err := confine()
	ready <- threadResult{applied, err}
	if err != nil {
		return
	}
	for s := range reqs {
		s.forkExec()
		close(s.done)
	}
}

// threadResult is how a spawner's thread came out of confining itself.
type threadResult struct {
	parts threadParts
	err   error
}

// spawn has the spawner's thread carry out s, and returns when it has.
func (sp *spawner) spawn(s *spawnReq) {
	s.done = make(chan struct{})
	sp.reqs <- s
	<-s.done
}

// release gives back a start handed out by sandboxes.spawnerFor.
func (sp *spawner) release() {
	sp.owner.mu.Lock()
	defer sp.owner.mu.Unlock()
	sp.refs--
	sp.endIfIdle()
}

// retire stops new starts; the thread ends once the last one is released.
// Called with owner.mu held.
func (sp *spawner) retire() {
	sp.retired = true
	sp.endIfIdle()
}

// endIfIdle ends a retired spawner with no start out. Called with owner.mu
// held.
func (sp *spawner) endIfIdle() {
	if sp.retired && sp.refs == 0 && !sp.ended {
		close(sp.reqs)
		sp.ended = true
	}
}
