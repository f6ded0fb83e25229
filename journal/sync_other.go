//go:build !linux

package journal

// syncData makes what was appended to the current file durable: here, by
// the file's own Sync.
func syncData(f File) error { return f.Sync() }
