//go:build !unix

package config

import "os"

// statOf has no device and inode to read here; checks fall back to names.
func statOf(string, os.FileInfo) (fileStat, bool) { return fileStat{}, false }
