//go:build linux

package exec

import (
	"io/fs"
	"syscall"
	"time"
)

// identityOf reads a file's identity from what stat returned.
func identityOf(fi fs.FileInfo) Identity {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return Identity{Size: fi.Size(), Mtime: fi.ModTime()}
	}
	return identityOfStat(st)
}

// identityOfStat reads a file's identity from a stat buffer.
func identityOfStat(st *syscall.Stat_t) Identity {
	return Identity{
		Dev:   st.Dev,
		Ino:   st.Ino,
		Size:  st.Size,
		Mtime: time.Unix(st.Mtim.Unix()),
		Ctime: time.Unix(st.Ctim.Unix()),
	}
}
