//go:build !linux && !darwin

package server

import (
	"errors"
	"net"
	"os"
)

// errNoLocalSocket says why the local socket is not offered here.
var errNoLocalSocket = errors.New("the local socket needs peer credentials and file locks, which assent uses only on Linux and macOS")

// openNoFollow is not needed where there is no socket to claim.
const openNoFollow = 0

func peerCred(*net.UnixConn) (uid, pid int, err error) { return 0, 0, errNoLocalSocket }

func lockFile(*os.File) error { return errNoLocalSocket }
