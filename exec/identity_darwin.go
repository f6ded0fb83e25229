//go:build darwin

package exec

import "syscall"

// identityOfStat reads a file's identity from a stat buffer.
func identityOfStat(st *syscall.Stat_t) Identity {
	return newIdentity(uint64(st.Dev), st.Ino, st.Size, st.Mtimespec, st.Ctimespec)
}
