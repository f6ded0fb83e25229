package human

import (
	"testing"
	"time"
)

func TestSize(t *testing.T) {
	for n, want := range map[int64]string{
		0: "0 bytes", 1: "1 byte", 900: "900 bytes", 1024: "1 KiB", 100000: "97.7 KiB",
		1 << 20: "1 MiB", 3435973837: "3.2 GiB", 5 << 40: "5 TiB",
		// Rounding up to 1024 of a unit moves to the next unit.
		1<<20 - 1: "1 MiB", 1<<30 - 1: "1 GiB", 1<<20 - 51: "1 MiB", 1<<20 - 52: "1023.9 KiB",
		-(1<<20 - 1): "-1 MiB", 1<<60 - 1: "1024 PiB",
	} {
		if got := Size(n); got != want {
			t.Errorf("Size(%d) = %q, want %q", n, got, want)
		}
	}
}

func TestDuration(t *testing.T) {
	for d, want := range map[time.Duration]string{
		-time.Second: "0ms", 0: "0ms", 12 * time.Millisecond: "12ms", time.Second: "1s",
		1500 * time.Millisecond: "1.5s", 40 * time.Second: "40s", 123 * time.Second: "2m03s",
		62 * time.Minute: "1h02m",
	} {
		if got := Duration(d); got != want {
			t.Errorf("Duration(%v) = %q, want %q", d, got, want)
		}
	}
}

func TestCount(t *testing.T) {
	for _, tc := range []struct {
		n    int
		noun string
		more []string
		want string
	}{
		{0, "call", nil, "0 calls"}, {1, "call", nil, "1 call"}, {2, "line", nil, "2 lines"},
		{3, "match", []string{"matches"}, "3 matches"},
	} {
		if got := Count(tc.n, tc.noun, tc.more...); got != tc.want {
			t.Errorf("Count(%d, %q) = %q, want %q", tc.n, tc.noun, got, tc.want)
		}
	}
	if got := Count(int64(1), "record"); got != "1 record" {
		t.Errorf("Count(int64(1), record) = %q", got)
	}
}
