//go:build linux

package exec

import (
	"bytes"
	"encoding/binary"
	"errors"
	"os"
)

// atExecFn is the auxiliary vector's AT_EXECFN: the address of the name
// the kernel executed the program by.
const atExecFn = 31

// execFn returns the name this process was executed by, as the kernel
// recorded it: the path given to execve, or /dev/fd/N for a descriptor.
func execFn() (string, error) {
	auxv, err := os.ReadFile("/proc/self/auxv")
	if err != nil {
		return "", err
	}
	for i := 0; i+16 <= len(auxv); i += 16 {
		if binary.NativeEndian.Uint64(auxv[i:]) != atExecFn {
			continue
		}
		mem, err := os.Open("/proc/self/mem")
		if err != nil {
			return "", err
		}
		defer mem.Close()
		buf := make([]byte, 4096)
		n, _ := mem.ReadAt(buf, int64(binary.NativeEndian.Uint64(auxv[i+8:])))
		if end := bytes.IndexByte(buf[:n], 0); end >= 0 {
			return string(buf[:end]), nil
		}
		return "", errors.New("AT_EXECFN is not a string")
	}
	return "", errors.New("no AT_EXECFN")
}
