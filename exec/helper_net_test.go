//go:build unix

package exec

import (
	"fmt"
	"net/netip"
	"syscall"
)

// ipprotoMPTCP is IPPROTO_MPTCP, which Landlock's TCP rules do not cover.
const ipprotoMPTCP = 262

// connectTo connects to addr ("127.0.0.1:port") with a socket of its own
// making, plain TCP or MPTCP: no resolver, no MPTCP by default, nothing of
// net's choosing between the test and the kernel.
func connectTo(addr string, mptcp bool) error {
	ap, err := netip.ParseAddrPort(addr)
	if err != nil {
		return err
	}
	proto := syscall.IPPROTO_TCP
	if mptcp {
		proto = ipprotoMPTCP
	}
	fd, err := syscall.Socket(syscall.AF_INET, syscall.SOCK_STREAM, proto)
	if err != nil {
		return fmt.Errorf("socket: %w", err)
	}
	defer syscall.Close(fd)
	if err := syscall.Connect(fd, &syscall.SockaddrInet4{Port: int(ap.Port()), Addr: ap.Addr().As4()}); err != nil {
		return fmt.Errorf("connect: %w", err)
	}
	return nil
}
