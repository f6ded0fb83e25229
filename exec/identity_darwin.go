//go:build darwin

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
	return Identity{
		Dev:   uint64(st.Dev),
		Ino:   st.Ino,
		Size:  st.Size,
		Mtime: time.Unix(st.Mtimespec.Unix()),
		Ctime: time.Unix(st.Ctimespec.Unix()),
	}
}
