// Package human writes quantities for people: byte sizes and durations,
// each in one form used everywhere assent shows one (the console, the
// results agents read, the server's log and `assent log`).
package human

import (
	"fmt"
	"math"
	"strings"
	"time"
)

// Size writes n bytes as "512 bytes", "64 KiB", "1.5 MiB" or "3.2 GiB":
// binary units, one decimal, none when it is zero.
func Size(n int64) string {
	const unit = 1024
	if n < unit && n > -unit {
		if n == 1 {
			return "1 byte"
		}
		return fmt.Sprintf("%d bytes", n)
	}
	// The unit is the smallest in which the value, rounded to one
	// decimal, below 1024: 1048575 bytes is 1023.999 KiB, which would
	// read "1024 KiB", so it is 1 MiB.
	units := []string{"KiB", "MiB", "GiB", "TiB", "PiB"}
	v, i := float64(n)/unit, 0
	for i < len(units)-1 && math.Abs(math.Round(v*10)) >= unit*10 {
		v /= unit
		i++
	}
	return strings.TrimSuffix(fmt.Sprintf("%.1f", v), ".0") + " " + units[i]
}

// Duration writes d shortest first: "12ms", "1.5s", "40s", "2m03s",
// "1h02m". A negative duration reads as 0ms.
func Duration(d time.Duration) string {
	switch {
	case d < 0:
		return "0ms"
	case d < time.Second:
		return fmt.Sprintf("%dms", d.Milliseconds())
	case d < time.Minute && d%time.Second == 0:
		return fmt.Sprintf("%ds", int(d.Seconds()))
	case d < time.Minute:
		return strings.TrimSuffix(fmt.Sprintf("%.1f", d.Seconds()), ".0") + "s"
	case d < time.Hour:
		return fmt.Sprintf("%dm%02ds", int(d.Minutes()), int(d.Seconds())%60)
	}
	return fmt.Sprintf("%dh%02dm", int(d.Hours()), int(d.Minutes())%60)
}

// Count writes n and the noun, plural when n is not 1: "1 call",
// "3 calls". plural is the noun's plural form when it is not noun+"s".
// n is any integer, so counts kept as int64 (a journal's records) need no
// conversion.
func Count[N ~int | ~int64](n N, noun string, plural ...string) string {
	if n == 1 {
		return "1 " + noun
	}
	p := noun + "s"
	if len(plural) > 0 {
		p = plural[0]
	}
	return fmt.Sprintf("%d %s", n, p)
}
