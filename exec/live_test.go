//go:build unix

package exec

import (
	"context"
	"strconv"
	"strings"
	"testing"
)

func TestLocalRun_LiveOutputIsCoalesced(t *testing.T) {
	const writes = 300 // one byte each, a sleep apart, so each read gets one
	var live liveLog
	res := NewLocal(Options{}).Run(context.Background(), helperCmd(t, "drip", strconv.Itoa(writes)), live.add)
	if got := string(res.Stdout.Data); got != strings.Repeat(".", writes) {
		t.Fatalf("stdout %q, want %d dots", got, writes)
	}
	if err := live.matches(Stdout, res.Stdout.Data); err != nil {
		t.Error(err)
	}
	if n := live.skipped(Stdout); n != 0 {
		t.Errorf("%d bytes skipped for a receiver that kept up", n)
	}
	// At the default 25 ms interval a run of this length (some 300 ms)
	// flushes about a dozen times; one callback per write would be 300.
	if n := live.len(); n > writes/10 {
		t.Errorf("%d callbacks for %d writes in %v, want at most %d", n, writes, res.Duration, writes/10)
	}
	t.Logf("%d callbacks for %d writes in %v", live.len(), writes, res.Duration)
}
