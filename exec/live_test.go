//go:build unix

package exec

import (
	"context"
	"strconv"
	"strings"
	"testing"
	"time"
)

func TestLocalRun_LiveOutputIsCoalesced(t *testing.T) {
	const writes = 300 // one byte each, a sleep apart, so each read gets one
	const interval = 50 * time.Millisecond
	var live liveLog
	l := NewLocal(Options{FlushInterval: interval})
	res := l.Run(context.Background(), helperCmd(t, "drip", strconv.Itoa(writes)), live.add)
	if got := string(res.Stdout.Data); got != strings.Repeat(".", writes) {
		t.Fatalf("stdout %q, want %d dots", got, writes)
	}
	if err := live.matches(Stdout, res.Stdout.Data); err != nil {
		t.Error(err)
	}
	if n := live.skipped(Stdout); n != 0 {
		t.Errorf("%d bytes skipped for a receiver that kept up", n)
	}
	// One callback per interval the run lasted (plus the first and the
	// last), however many writes; one per write would be 300.
	limit := int(res.Duration/interval) + 3
	if limit >= writes {
		t.Fatalf("the run took %v, too long to tell coalescing from none", res.Duration)
	}
	if n := live.len(); n > limit {
		t.Errorf("%d callbacks for %d writes in %v, want at most %d", n, writes, res.Duration, limit)
	}
	t.Logf("%d callbacks for %d writes in %v", live.len(), writes, res.Duration)
}
