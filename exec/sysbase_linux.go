//go:build linux

package exec

import (
	"errors"
	"io/fs"

	"golang.org/x/sys/unix"
)

// baseRule is one part of the system every sandboxed program may use.
type baseRule struct {
	path   string
	rights uint64
}

// systemBase is what every sandbox allows besides the tool's own sets:
// programs and libraries (/usr and the /lib and /bin directories, which
// may be links into it; the Nix store), what the C library, the locale,
// TLS and name service read in /etc, the harmless devices, and /proc.
//
// /etc is listed entry by entry rather than whole: as root, a whole /etc
// would hand every tool /etc/shadow and the SSH host keys. /proc is whole,
// because a program's own /proc/self cannot be named before it exists; what
// /proc shows of other processes that matters (environment, memory, open
// files, namespaces) the kernel guards with ptrace checks, which Landlock
// refuses across the sandbox's edge, and /proc/kcore needs CAP_SYS_RAWIO,
// which the sandbox drops. Writing under /proc (sysctls, sysrq) is denied.
func systemBase() []baseRule {
	const ro = llRead | llReadDir
	rules := []baseRule{
		{"/usr", readRights}, {"/bin", readRights}, {"/sbin", readRights},
		{"/lib", readRights}, {"/lib32", readRights}, {"/lib64", readRights}, {"/libx32", readRights},
		{"/nix/store", readRights},
		{"/dev/null", llRead | llWrite | llTruncate | llIoctl},
		{"/dev/zero", llRead}, {"/dev/full", llRead | llWrite}, {"/dev/random", llRead}, {"/dev/urandom", llRead},
		{"/proc", ro},
	}
	for _, name := range []string{
		// the dynamic loader
		"ld.so.cache", "ld.so.conf", "ld.so.conf.d",
		// time and locale
		"localtime", "timezone", "locale.alias", "locale.conf", "default/locale",
		// users, groups and name service
		"nsswitch.conf", "passwd", "group", "hosts", "host.conf", "resolv.conf", "gai.conf",
		"services", "protocols", "netconfig",
		// TLS
		"ssl", "ca-certificates", "ca-certificates.conf", "pki", "crypto-policies",
		// what common tools read
		"mime.types", "magic", "os-release", "gitconfig", "inputrc", "terminfo",
	} {
		rules = append(rules, baseRule{"/etc/" + name, ro})
	}
	return rules
}

// allowBase adds the system base to rs. A part this system lacks is left
// out.
func allowBase(rs *ruleset) error {
	for _, b := range systemBase() {
		if err := allowPath(rs, b.path, b.rights, true); err != nil {
			return err
		}
	}
	return nil
}

// allowPath adds a rule for path. follow says whether symlinks on the way
// are followed (the system's own: /lib is often a link to /usr/lib); the
// tool's sets are resolved when the tool loads, so a symlink in one now is
// something swapped in since, and is refused. A path that does not exist
// gives nothing to allow and is skipped.
func allowPath(rs *ruleset, path string, rights uint64, follow bool) error {
	var fd int
	var err error
	if follow {
		fd, err = unix.Open(path, unix.O_PATH|unix.O_CLOEXEC, 0)
	} else {
		fd, err = unix.Openat2(unix.AT_FDCWD, path, &unix.OpenHow{
			Flags:   unix.O_PATH | unix.O_CLOEXEC,
			Resolve: unix.RESOLVE_NO_SYMLINKS | unix.RESOLVE_NO_MAGICLINKS,
		})
		if errors.Is(err, unix.ENOSYS) { // before Linux 5.6: the last part, at least
			fd, err = unix.Open(path, unix.O_PATH|unix.O_CLOEXEC|unix.O_NOFOLLOW, 0)
		}
	}
	switch {
	case errors.Is(err, unix.ENOENT):
		return nil
	case errors.Is(err, unix.ELOOP):
		return &fs.PathError{Op: "sandbox", Path: path, Err: errors.New("now goes through a symlink, as it did not when the tool loaded")}
	case err != nil:
		return &fs.PathError{Op: "sandbox", Path: path, Err: err}
	}
	defer unix.Close(fd)
	if err := rs.allow(fd, rights); err != nil {
		return &fs.PathError{Op: "sandbox", Path: path, Err: err}
	}
	return nil
}
