//go:build linux && !amd64 && !arm64

package exec

// seccompNative knows no ABI here: sockets are not filtered, and the
// network is denied only as far as a namespace or Landlock denies it.
func seccompNative() (seccompABI, bool) { return seccompABI{}, false }
