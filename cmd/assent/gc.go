package main

import (
	"runtime"
	"runtime/debug"
	"sync"
	"time"
)

// defaultGCPercent is GOGC when the environment sets none. A server's
// live heap is a few megabytes, and each call allocates some 16 KB, so at
// Go's default of 100 the collector ran every few hundred calls and took
// 5.7% of the server's CPU with 16 calls in flight over HTTP (perf record
// on the server). At 400 it runs a quarter as often: bench/load, raw
// client, -n 20000, against the same source at 100 in the same rounds:
// stdio 96% and 97% of bare exec's calls/s at c=16 and 64 against 93% and
// 95%, HTTP 95% and 92% against 92% and 91%. The cost is memory: the heap
// may grow to five times what is live, and the server held 38 MB against
// 26 MB under that load. GOGC in the environment still decides.
const defaultGCPercent = 400

// collectLessOften sets GOGC to defaultGCPercent unless the environment
// sets it (getenv is os.Getenv).
func collectLessOften(getenv func(string) string) {
	if getenv("GOGC") == "" {
		debug.SetGCPercent(defaultGCPercent)
	}
}

// setupHeap is how much memory assent may hold while it sets up before the
// collector runs. A start with 200 tools allocates some 6 MB (loading,
// building the server, package init); collecting while it is built cost the
// start about 4 ms of 30, and the first collection after it, which the
// heap grown since the runtime's start sets off at once, slowed the
// client's first exchange (initialize, tools/list) by 2 ms more.
const setupHeap = 256 << 20

// gcHeldAfterSetup is how long the collector still waits once set-up is
// done: past a client's first exchange, and too short for the garbage of
// any burst of calls to come near setupHeap.
const gcHeldAfterSetup = time.Second

// holdGC keeps the garbage collector from running until the returned
// function is called, unless assent's memory passes setupHeap (or a lower
// GOMEMLIMIT); that function gives the collector back the settings it had
// (GOGC and GOMEMLIMIT as the environment set them, or defaultGCPercent
// where it set no GOGC). A collection in the hold, which
// only memory past the limit sets off, ends the hold there and then: a
// set-up that big collects as usual, rather than over and over against
// the limit (a start with 40 000 tools took 4.0 s so, and takes 2.5 s). A
// hold while another is in force (a second set-up in one process) changes
// nothing and restores nothing, so the first one's restore brings back
// the settings from before both.
func holdGC() (restore func()) {
	limit := debug.SetMemoryLimit(-1) // a negative limit only reads it
	percent := debug.SetGCPercent(-1)
	if percent < 0 && limit <= setupHeap {
		return func() {} // held already, or the environment holds it as tight
	}
	debug.SetMemoryLimit(min(limit, setupHeap))
	var once sync.Once
	restore = func() {
		once.Do(func() {
			debug.SetGCPercent(percent)
			debug.SetMemoryLimit(limit)
		})
	}
	// Nothing refers to the sentinel, so the first collection frees it.
	runtime.AddCleanup(new([64]byte), func(struct{}) { restore() }, struct{}{})
	return restore
}
