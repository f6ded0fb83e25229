package main

import (
	"runtime/debug"
	"time"
)

// setupHeap is how much memory assent may hold while it sets up before the
// collector runs. A start with 200 tools allocates about 8 MB, most of it
// kept for as long as assent runs; collecting while it is built cost the
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
// GOMEMLIMIT); that function gives the collector back the settings the
// environment gave it (GOGC, GOMEMLIMIT). A hold while another is in force
// (a second set-up in one process) changes nothing and restores nothing,
// so the first one's restore brings back the environment's settings.
func holdGC() (restore func()) {
	limit := debug.SetMemoryLimit(-1) // a negative limit only reads it
	percent := debug.SetGCPercent(-1)
	if percent < 0 && limit <= setupHeap {
		return func() {} // held already, or the environment holds it as tight
	}
	debug.SetMemoryLimit(min(limit, setupHeap))
	return func() {
		debug.SetGCPercent(percent)
		debug.SetMemoryLimit(limit)
	}
}
