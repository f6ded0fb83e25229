package main

import "runtime/debug"

// setupHeap is how much memory assent may hold while it sets up before the
// collector runs. A start with 200 tools allocates about 8 MB, most of it
// kept for as long as assent runs; collecting while it is built costs the
// start about 5 ms, a sixth of it.
const setupHeap = 256 << 20

// holdGC keeps the garbage collector from running until the returned
// function is called, unless assent's memory passes setupHeap (or a lower
// GOMEMLIMIT); that function gives the collector back the settings the
// environment gave it (GOGC, GOMEMLIMIT).
func holdGC() (restore func()) {
	limit := debug.SetMemoryLimit(-1) // a negative limit only reads it
	percent := debug.SetGCPercent(-1)
	debug.SetMemoryLimit(min(limit, setupHeap))
	return func() {
		debug.SetGCPercent(percent)
		debug.SetMemoryLimit(limit)
	}
}
