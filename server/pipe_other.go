//go:build !linux

package server

import "io"

// roomyPipe leaves out as it is: pipes cannot be grown here.
func roomyPipe(out io.Writer) io.Writer { return out }
