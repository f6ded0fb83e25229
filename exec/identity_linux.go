//go:build linux

package exec

import "syscall"

// identityOfStat reads a file's identity from a stat buffer.
func identityOfStat(st *syscall.Stat_t) Identity {
	return newIdentity(st.Dev, st.Ino, st.Size, st.Mtim, st.Ctim)
}
