package main

import (
	"math"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"testing"
	"time"
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

// gcSettings reads GOGC and the memory limit without changing them.
func gcSettings() (percent, limit int64) {
	s := []metrics.Sample{{Name: "/gc/gogc:percent"}, {Name: "/gc/gomemlimit:bytes"}}
	metrics.Read(s)
	return int64(s[0].Value.Uint64()), int64(s[1].Value.Uint64())
}

func TestHoldGC_ACollectionInTheHoldEndsIt(t *testing.T) {
	oldPercent, oldLimit := debug.SetGCPercent(73), debug.SetMemoryLimit(math.MaxInt64)
	defer func() { debug.SetGCPercent(oldPercent); debug.SetMemoryLimit(oldLimit) }()
	restore := holdGC()
	defer restore()
	if percent, limit := gcSettings(); percent != -1 || limit != setupHeap {
		t.Fatalf("held: GOGC %d and limit %d; want off and %d", percent, limit, int64(setupHeap))
	}
	runtime.GC() // as memory past the limit would
	deadline := time.Now().Add(10 * time.Second)
	for {
		percent, limit := gcSettings()
		if percent == 73 && limit == math.MaxInt64 {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("a collection left the hold on: GOGC %d and limit %d", percent, limit)
		}
		runtime.GC()
		time.Sleep(time.Millisecond)
	}
}

func TestCollectLessOften_UnlessTheEnvironmentSaysSo(t *testing.T) {
	old := debug.SetGCPercent(100)
	defer debug.SetGCPercent(old)
	for _, tt := range []struct {
		env  string
		want int
	}{{"", defaultGCPercent}, {"50", 100}, {"off", 100}} {
		debug.SetGCPercent(100)
		collectLessOften(func(k string) string {
			if k == "GOGC" {
				return tt.env
			}
			return ""
		})
		if got := debug.SetGCPercent(100); got != tt.want {
			t.Errorf("GOGC=%q: the collector's percent is %d, want %d", tt.env, got, tt.want)
		}
	}
}
