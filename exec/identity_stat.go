//go:build linux || darwin

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

// newIdentity is an Identity from the fields of a stat buffer, which each
// system names its own way.
func newIdentity(dev, ino uint64, size int64, mtime, ctime syscall.Timespec) Identity {
	return Identity{Dev: dev, Ino: ino, Size: size, Mtime: time.Unix(mtime.Unix()), Ctime: time.Unix(ctime.Unix())}
}
