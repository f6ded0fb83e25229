package main

import (
	"math"
	"runtime/debug"
	"testing"
)

func TestHoldGC_StopsTheCollectorAndGivesBackTheEnvironmentsSettings(t *testing.T) {
	for _, limit := range []int64{math.MaxInt64, 64 << 20} {
		oldPercent, oldLimit := debug.SetGCPercent(73), debug.SetMemoryLimit(limit)
		restore := holdGC()
		percent, heldLimit := debug.SetGCPercent(-1), debug.SetMemoryLimit(-1)
		restore()
		gotPercent, gotLimit := debug.SetGCPercent(oldPercent), debug.SetMemoryLimit(oldLimit)
		if percent != -1 || heldLimit != min(limit, setupHeap) {
			t.Errorf("limit %d: while held, GOGC %d and limit %d; want off and %d", limit, percent, heldLimit, min(limit, setupHeap))
		}
		if gotPercent != 73 || gotLimit != limit {
			t.Errorf("limit %d: after, GOGC %d and limit %d; want 73 and %d", limit, gotPercent, gotLimit, limit)
		}
	}
}

func TestHoldGC_AHoldWithinAHoldLeavesTheFirstToRestore(t *testing.T) {
	oldPercent, oldLimit := debug.SetGCPercent(73), debug.SetMemoryLimit(math.MaxInt64)
	defer func() { debug.SetGCPercent(oldPercent); debug.SetMemoryLimit(oldLimit) }()
	first := holdGC()
	second := holdGC()
	first()
	second() // ends after the first, as a second set-up's timer would
	if percent, limit := debug.SetGCPercent(73), debug.SetMemoryLimit(-1); percent != 73 || limit != math.MaxInt64 {
		t.Errorf("after both holds ended, GOGC %d and limit %d; want 73 and no limit", percent, limit)
	}
}
