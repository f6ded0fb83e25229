package server

import (
	"bufio"
	"bytes"
	"errors"
	"io"
)

// maxLine bounds one message on a line-delimited connection, as
// DefaultMaxBody bounds one over HTTP.
const maxLine = DefaultMaxBody

var errLineTooLong = errors.New("line too long")

// readLine returns the next line without its newline. A line past maxLine
// is read to its end and dropped: it returns nil and errLineTooLong.
func readLine(r *bufio.Reader) ([]byte, error) {
	var line []byte
	tooLong := false
	for {
		chunk, err := r.ReadSlice('\n')
		if !tooLong {
			if len(line)+len(chunk) > maxLine+1 {
				tooLong, line = true, nil
			} else {
				line = append(line, chunk...)
			}
		}
		switch {
		case errors.Is(err, bufio.ErrBufferFull):
			continue
		case err != nil && (len(line) == 0 || tooLong):
			if tooLong && errors.Is(err, io.EOF) {
				return nil, errLineTooLong
			}
			return line, err
		case tooLong:
			return nil, errLineTooLong
		}
		// A last line without a newline still counts, then EOF.
		return bytes.TrimSuffix(line, []byte("\n")), nil
	}
}
