//go:build unix

package config

import (
	"os"
	"path/filepath"
	"syscall"
)

// statOf reads the identity of a file from its FileInfo: device and inode,
// how many names it has, and whether this process could change it.
func statOf(path string, fi os.FileInfo) (fileStat, bool) {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return fileStat{}, false
	}
	return fileStat{
		id:    fileID{dev: uint64(st.Dev), ino: uint64(st.Ino)},
		links: uint64(st.Nlink),
		mine:  st.Uid == uint32(os.Geteuid()) || mayWrite(path) || mayWrite(filepath.Dir(path)),
	}, true
}

// mayWrite reports whether this process may write path (or, for a
// directory, create and rename entries in it).
func mayWrite(path string) bool {
	const wOK = 2
	return syscall.Access(path, wOK) == nil
}
