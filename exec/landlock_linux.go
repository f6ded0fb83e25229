//go:build linux

package exec

import (
	"errors"
	"fmt"
	"syscall"
	"unsafe"

	"golang.org/x/sys/unix"
)

// Landlock access rights, by what the sandbox grants.
const (
	llExec     = unix.LANDLOCK_ACCESS_FS_EXECUTE
	llRead     = unix.LANDLOCK_ACCESS_FS_READ_FILE
	llReadDir  = unix.LANDLOCK_ACCESS_FS_READ_DIR
	llWrite    = unix.LANDLOCK_ACCESS_FS_WRITE_FILE
	llTruncate = unix.LANDLOCK_ACCESS_FS_TRUNCATE
	llIoctl    = unix.LANDLOCK_ACCESS_FS_IOCTL_DEV
	// llDevices are the rights to make device nodes. They are handled, so
	// denied, everywhere: a process that may create a block device node in
	// a write root can read the disk under every rule.
	llDevices = unix.LANDLOCK_ACCESS_FS_MAKE_CHAR | unix.LANDLOCK_ACCESS_FS_MAKE_BLOCK
	// llFileRights are the rights a rule on a file (not a directory) may
	// carry; the kernel refuses directory rights there.
	llFileRights = llExec | llRead | llWrite | llTruncate | llIoctl

	// readRights is what a read root, and the system, may do below: read
	// and run files, list directories.
	readRights = llExec | llRead | llReadDir
	// writeRights is everything the kernel confines except making device
	// nodes: write, create, remove, rename, link, truncate.
	writeRights = ^uint64(0) &^ llDevices
)

// landlockABI returns the Landlock ABI version of this kernel, or 0 and why
// it has none.
func landlockABI() (int, error) {
	v, _, errno := syscall.Syscall(unix.SYS_LANDLOCK_CREATE_RULESET, 0, 0, unix.LANDLOCK_CREATE_RULESET_VERSION)
	switch {
	case errno == unix.ENOSYS:
		return 0, errors.New("the kernel has no Landlock")
	case errno == unix.EOPNOTSUPP:
		return 0, errors.New("Landlock is turned off in this kernel (the lsm= boot parameter)")
	case errno != 0:
		return 0, fmt.Errorf("Landlock: %v", errno)
	}
	return int(v), nil
}

// fsHandled is every filesystem right ABI version abi confines.
func fsHandled(abi int) uint64 {
	m := uint64(unix.LANDLOCK_ACCESS_FS_MAKE_SYM<<1 - 1) // version 1
	if abi >= 2 {
		m |= unix.LANDLOCK_ACCESS_FS_REFER
	}
	if abi >= 3 {
		m |= llTruncate
	}
	if abi >= 5 {
		m |= llIoctl
	}
	return m
}

// ruleset is a Landlock ruleset being built, for the ABI it was made for.
type ruleset struct {
	fd      int
	abi     int
	handled uint64
}

// newRuleset makes a ruleset that confines every filesystem right the
// kernel knows and, with denyTCP on ABI 4 and later, TCP bind and connect.
// From ABI 6 it also keeps signals from reaching processes outside the
// sandbox (assent itself, other calls) and, with denyTCP, abstract unix
// sockets from reaching listeners outside it.
func newRuleset(abi int, denyTCP bool) (*ruleset, error) {
	attr := unix.LandlockRulesetAttr{Access_fs: fsHandled(abi)}
	if denyTCP && abi >= 4 {
		attr.Access_net = unix.LANDLOCK_ACCESS_NET_BIND_TCP | unix.LANDLOCK_ACCESS_NET_CONNECT_TCP
	}
	if abi >= 6 {
		attr.Scoped = unix.LANDLOCK_SCOPE_SIGNAL
		if denyTCP {
			attr.Scoped |= unix.LANDLOCK_SCOPE_ABSTRACT_UNIX_SOCKET
		}
	}
	fd, _, errno := syscall.Syscall(unix.SYS_LANDLOCK_CREATE_RULESET, uintptr(unsafe.Pointer(&attr)), unsafe.Sizeof(attr), 0)
	if errno != 0 {
		return nil, fmt.Errorf("landlock_create_ruleset: %v", errno)
	}
	return &ruleset{fd: int(fd), abi: abi, handled: attr.Access_fs}, nil
}

// close releases the ruleset; a process restricted by it stays restricted.
func (rs *ruleset) close() { unix.Close(rs.fd) }

// allow lets the sandbox do what rights allow below the file or directory
// open as fd (an O_PATH descriptor is enough), as far as this ABI confines
// it and as far as a rule on that kind of file may.
func (rs *ruleset) allow(fd int, rights uint64) error {
	var st syscall.Stat_t
	if err := syscall.Fstat(fd, &st); err != nil {
		return err
	}
	rights &= rs.handled
	if st.Mode&syscall.S_IFMT != syscall.S_IFDIR {
		rights &= llFileRights
	}
	if rights == 0 {
		return nil
	}
	attr := unix.LandlockPathBeneathAttr{Allowed_access: rights, Parent_fd: int32(fd)}
	_, _, errno := syscall.Syscall6(unix.SYS_LANDLOCK_ADD_RULE, uintptr(rs.fd), unix.LANDLOCK_RULE_PATH_BENEATH,
		uintptr(unsafe.Pointer(&attr)), 0, 0, 0)
	if errno != 0 {
		return fmt.Errorf("landlock_add_rule: %v", errno)
	}
	return nil
}
