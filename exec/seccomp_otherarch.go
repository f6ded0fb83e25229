//go:build linux && !amd64 && !arm64

package exec

// seccompArches knows no ABI here: sockets are not filtered, and the
// network is denied only as far as a namespace or Landlock denies it.
func seccompArches() []seccompArch { return nil }
