// Package exec runs one approved command: no shell, its own process group, a
// timeout that always ends it, capped output and a minimal environment, held
// to what was approved and confined to what its tool declares. It knows
// nothing of MCP, policy or the console.
//
// # What a run is held to
//
// Right before the fork the runner checks, and refuses the call (Result.
// Refused, with the reason in StartError) when:
//   - a path argument no longer resolves as it did when the call was shown
//     (Command.Paths; a directory swapped for a symlink since approval);
//   - the program is no longer the file that loaded (Command.Program: device,
//     inode, size, modification and change times). A pinned binary is then
//     executed through the very descriptor that was checked (execveat), so a
//     swap after the check runs nothing. A #! script is run by its path: its
//     interpreter opens it by path anyway, a race no way of starting it
//     closes, and which the sandbox limits to what the sandbox allows;
//   - the sandbox mode is required and the command cannot be confined.
//
// # The sandbox (Linux)
//
// The child applies the sandbox to itself between clone and exec; no thread
// of assent is ever confined. With Landlock (ABI 1 and later, all the
// kernel knows confined) the program may read and execute below its read
// set and the system (/usr, /lib*, /bin, /sbin, the Nix store, the files of
// /etc the C library, locale, TLS and name service read, /dev/null, /dev/zero,
// /dev/full, /dev/random, /dev/urandom, /proc), and write below its write set
// only; nothing may make device nodes. With ABI 6 it cannot signal processes
// outside the sandbox (assent, other calls). A program run as root gets no
// capabilities (SECBIT_NOROOT), so it cannot step around the sandbox through
// kernel modules, raw I/O, bpf or mounts, nor override file permissions.
//
// A command without network is refused every socket by a seccomp filter
// (socketpair excepted; io_uring refused too, and the 32-bit system call
// ABIs); Landlock also refuses TCP bind and connect (ABI 4). Where seccomp is
// not to be had, the child joins an empty network namespace instead (root
// only): TCP, UDP and MPTCP reach nothing, but a unix socket file of a local
// daemon stays reachable, and the Result says so.
//
// What it does not cover: it is not a resource limit (CPU, memory, disk
// space), it does not hide what exists (paths can still be looked up and
// stat'ed, and /proc lists other processes, though their memory,
// environment and open files stay closed), it does not confine time, and on
// kernels without Landlock the filesystem is unconfined (best-effort runs
// anyway and says "unconfined"; required refuses). Elsewhere than Linux on
// amd64 and arm64 every command runs unconfined.
//
// # Nothing escapes
//
// On Linux this process becomes a child subreaper, so processes a call leaves
// behind out of its process group (setsid, a double fork, one that joined this
// process's own group) come back to it and are ended with the call, on exit,
// timeout, cancellation or shutdown; a process that starts children of its
// own beside the runner's says so with Options.ForeignChildren. An
// orphan cannot tell which call it came from; one started while other calls
// were running is ended when the last of them ends. Containment
// pid-namespace ends a call's processes exactly, but makes the program PID
// 1, which cannot signal itself. Elsewhere only the process group is ended.
package exec
