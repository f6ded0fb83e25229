//go:build linux

package exec

import (
	"context"
	"errors"
	"net"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"

	"golang.org/x/sys/unix"
)

// listenLoopback starts a TCP listener on 127.0.0.1 that accepts and
// closes every connection, for the length of the test.
func listenLoopback(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp4", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			c.Close()
		}
	}()
	t.Cleanup(func() {
		ln.Close()
		<-done
	})
	return ln.Addr().String()
}

func TestSandbox_NetworkOnlyWhenTheToolAsks(t *testing.T) {
	addr := listenLoopback(t)
	l := sandboxLocal(t, Options{})
	tests := []struct {
		name    string
		network bool
		mptcp   bool
		wantOK  bool
		wantNet string
	}{
		{name: "TCP without network is refused", wantNet: NetworkDenied},
		{name: "MPTCP, which Landlock does not cover, without network is refused", mptcp: true, wantNet: NetworkDenied},
		{name: "TCP with network connects", network: true, wantOK: true, wantNet: NetworkAllowed},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			args := []string{addr}
			if tt.mptcp {
				args = append(args, "mptcp")
			}
			cmd := helperCmd(t, "connect", args...)
			cmd.Sandbox = &Sandbox{Network: tt.network}
			res := l.Run(context.Background(), cmd, nil)
			if tt.wantOK {
				if res.ExitCode != 0 {
					t.Errorf("exit %d, stderr %q; want a connection", res.ExitCode, res.Stderr.Data)
				}
			} else {
				requireDenied(t, res)
			}
			if c := res.Confinement; c.Network != tt.wantNet {
				t.Errorf("network %q, want %q (%s)", c.Network, tt.wantNet, c)
			}
		})
	}
}

func TestLocalProbe_SaysWhatDeniesTheNetworkOfRuns(t *testing.T) {
	// The socket filter where seccomp works, else the empty namespace, and
	// Landlock's TCP rules besides; on this kind of machine (Linux 6.x,
	// amd64 or arm64) the filter and Landlock.
	l := sandboxLocal(t, Options{})
	sup := l.Probe()
	want := sup.NetworkBy()
	if !slices.Equal(want, []string{"seccomp", "landlock"}) {
		t.Errorf("probe: network denied by %q, want seccomp and landlock here", want)
	}
	cmd := helperCmd(t, "exit", "0")
	cmd.Sandbox = &Sandbox{}
	res := l.Run(context.Background(), cmd, nil)
	if !slices.Equal(res.Confinement.NetworkBy, want) {
		t.Errorf("network denied by %q, want %q", res.Confinement.NetworkBy, want)
	}
	t.Logf("confinement: %s; machine: %s", res.Confinement, sup)
}

func TestSandbox_EachNetworkLayerDeniesAlone(t *testing.T) {
	// With the other layers taken away, each one still keeps a sandbox
	// without network from the listener; Landlock alone covers TCP only.
	addr := listenLoopback(t)
	tests := []struct {
		name       string
		keep       string // the one layer left
		wantNet    string
		wantBy     []string
		wantErr    string // on a TCP connect
		mptcpStops bool
	}{
		{name: "the namespace", keep: "namespace", wantNet: NetworkDenied, wantBy: []string{"namespace"},
			wantErr: "network is unreachable", mptcpStops: true},
		{name: "the socket filter", keep: "seccomp", wantNet: NetworkDenied, wantBy: []string{"seccomp"},
			wantErr: "permission denied", mptcpStops: true},
		{name: "Landlock", keep: "landlock", wantNet: NetworkTCPDenied, wantBy: []string{"landlock"},
			wantErr: "permission denied"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			l := simulatedLocal(t, Options{}, simulated{noLandlock: tt.keep != "landlock"})
			s := &l.os.sandbox
			s.probe()
			if tt.keep != "seccomp" {
				s.filter, s.fprog = nil, nil
			}
			if tt.keep != "namespace" {
				s.close() // lets go of any namespace made
				s.netnsErr = errors.New("no namespace in this test")
			}
			for _, mptcp := range []bool{false, true} {
				args := []string{addr}
				if mptcp {
					args = append(args, "mptcp")
				}
				cmd := helperCmd(t, "connect", args...)
				cmd.Sandbox = &Sandbox{}
				res := l.Run(context.Background(), cmd, nil)
				if c := res.Confinement; c.Network != tt.wantNet || !slices.Equal(c.NetworkBy, tt.wantBy) {
					t.Errorf("network %q by %q, want %q by %q", c.Network, c.NetworkBy, tt.wantNet, tt.wantBy)
				}
				stderr := strings.ToLower(string(res.Stderr.Data))
				switch {
				case !mptcp && (res.ExitCode == 0 || !strings.Contains(stderr, tt.wantErr)):
					t.Errorf("TCP: exit %d, stderr %q; want it refused with %q", res.ExitCode, stderr, tt.wantErr)
				case mptcp && tt.mptcpStops && res.ExitCode == 0:
					t.Errorf("MPTCP connected through %s", tt.keep)
				case mptcp && !tt.mptcpStops:
					t.Logf("MPTCP with %s alone: exit %d, %q", tt.keep, res.ExitCode, stderr)
				}
			}
		})
	}
}

func TestSandbox_NoOtherWayToASocket(t *testing.T) {
	// io_uring makes sockets where no system call filter sees them; x32
	// calls (on amd64) reach the same kernel by other numbers.
	l := sandboxLocal(t, Options{})
	if !l.Probe().Seccomp {
		t.Skip("no socket filter here")
	}
	tests := []struct {
		name    string
		nr      uint64
		wantSig string // else: refused with EACCES
		arch    string // only on this GOARCH
	}{
		{name: "io_uring_setup is refused", nr: unix.SYS_IO_URING_SETUP},
		{name: "an x32 call ends the program", nr: 0x40000000 | unix.SYS_GETPID, wantSig: "SIGSYS", arch: "amd64"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if tt.arch != "" && tt.arch != runtime.GOARCH {
				t.Skipf("only on %s", tt.arch)
			}
			cmd := helperCmd(t, "syscall", strconv.FormatUint(tt.nr, 10))
			cmd.Sandbox = &Sandbox{}
			res := l.Run(context.Background(), cmd, nil)
			if tt.wantSig != "" {
				if res.Signal != tt.wantSig {
					t.Errorf("exit %d, signal %q, stderr %q; want ended by %s", res.ExitCode, res.Signal, res.Stderr.Data, tt.wantSig)
				}
				return
			}
			requireDenied(t, res)
		})
	}
}
