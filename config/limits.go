package config

import "fmt"

// Limits on a whole command, below the kernel's own (a single argument of
// 128 KiB, about 2 MiB for argv and environment together), so an oversize
// call or edit gets a clear refusal instead of E2BIG at start.
const (
	// MaxArgBytes is the longest one argv element may be, in bytes.
	MaxArgBytes = 128<<10 - 1
	// MaxArgvBytes bounds all of argv, counting a terminating NUL per
	// element as the kernel does.
	MaxArgvBytes = 1 << 20
	// MaxArgc is the most argv elements a command may have.
	MaxArgc = 4096
)

// SizeError is a command over one of the limits above.
type SizeError struct {
	// Limit names the limit broken: "argument count", "argument size" or
	// "command-line size".
	Limit string
	// Index is the argv element at fault for "argument size", else -1.
	Index int
	// Size is what the command has; Max is the limit.
	Size, Max int
}

// Error says which limit the command breaks and by how much.
func (e *SizeError) Error() string {
	switch e.Limit {
	case "argument count":
		return fmt.Sprintf("the command line would exceed the limit of %d arguments (it has %d)", e.Max, e.Size)
	case "argument size":
		return fmt.Sprintf("argument %d would be %d bytes, over the limit of %d bytes per argument", e.Index, e.Size, e.Max)
	}
	return fmt.Sprintf("the command line would exceed the limit of %d bytes (it has %d)", e.Max, e.Size)
}

// CheckLimits checks a whole argv against MaxArgc, MaxArgBytes and
// MaxArgvBytes, returning a *SizeError that names the limit broken. Every
// expanded command passes it; the queue calls it on an operator's edited
// argv too, so an oversize edit is refused as clearly as an oversize call.
func CheckLimits(argv []string) error {
	if len(argv) > MaxArgc {
		return &SizeError{Limit: "argument count", Index: -1, Size: len(argv), Max: MaxArgc}
	}
	total := 0
	for i, a := range argv {
		if len(a) > MaxArgBytes {
			return &SizeError{Limit: "argument size", Index: i, Size: len(a), Max: MaxArgBytes}
		}
		total += len(a) + 1
	}
	if total > MaxArgvBytes {
		return &SizeError{Limit: "command-line size", Index: -1, Size: total, Max: MaxArgvBytes}
	}
	return nil
}
