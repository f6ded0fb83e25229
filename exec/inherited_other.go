//go:build !linux

package exec

// SealInherited does nothing here: the runner runs programs with os/exec,
// and descriptors without close-on-exec are the caller's to mind.
func SealInherited() error { return nil }
