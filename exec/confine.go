package exec

import "time"

// Sandbox is what one command may touch, computed from its tool by config
// (the roots of its path parameters, its working directory, what the tool
// file adds) and enforced by the runner in the kernel. The runner adds the
// system's own needs (the program, its interpreter and libraries, /usr,
// /lib*, /etc for locale, TLS and name service, /dev/null, /dev/zero,
// /dev/urandom, /proc/self); nothing else is reachable.
type Sandbox struct {
	// Read lists files and directories the command may read (and execute
	// from) below, besides the system's. Absolute, symlinks resolved.
	Read []string `json:"read,omitempty"`
	// Write lists files and directories the command may write below (and
	// read). Empty for a read-only tool. Absolute, symlinks resolved.
	Write []string `json:"write,omitempty"`
	// Network allows TCP (and, where the kernel confines it, UDP) sockets.
	Network bool `json:"network,omitempty"`
}

// PathCheck is one path argument as it was resolved when the call was
// expanded and shown. Right before the program starts, Given is resolved
// again; if it no longer leads to Resolved (a symlink swapped in since
// approval), the command does not run.
type PathCheck struct {
	// Given is the absolute path before symlinks were resolved.
	Given string `json:"given"`
	// Resolved is what Given resolved to, as it appears in argv.
	Resolved string `json:"resolved"`
}

// Identity pins the program file that loaded, so a swapped binary or a
// retargeted symlink is noticed right before exec.
type Identity struct {
	// Dev and Ino name the file.
	Dev uint64 `json:"dev"`
	Ino uint64 `json:"ino"`
	// Size, Mtime and Ctime change when the file is rewritten in place.
	Size  int64     `json:"size"`
	Mtime time.Time `json:"mtime"`
	Ctime time.Time `json:"ctime"`
	// SHA256 is the hash of the file's contents when it is under 64 MiB,
	// for the journal and `assent check`; it is not recomputed per call.
	SHA256 string `json:"sha256,omitempty"`
}
