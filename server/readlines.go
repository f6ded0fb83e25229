package server

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"io"
	"log/slog"
)

// maxLine bounds one message on a line-delimited connection, as
// DefaultMaxBody bounds one over HTTP.
const maxLine = DefaultMaxBody

// readLines reads in, one message a line, on a goroutine of its own, and
// closes the channel at the end of input. A line longer than maxLine is
// skipped and delivered as nil, to be refused. Reading stops when ctx
// ends; a Read already blocked on in returns only when in is closed (for
// stdin, the process exits first).
func readLines(ctx context.Context, in io.Reader, log *slog.Logger) <-chan []byte {
	lines := make(chan []byte)
	go func() {
		defer close(lines)
		r := bufio.NewReaderSize(in, 64<<10)
		for {
			line, err := readLine(r)
			if len(bytes.TrimSpace(line)) > 0 || (line == nil && errors.Is(err, errLineTooLong)) {
				select {
				case lines <- line:
				case <-ctx.Done():
					return
				}
			}
			switch {
			case err == nil, errors.Is(err, errLineTooLong):
			case errors.Is(err, io.EOF):
				return
			default:
				log.Debug("reading from the client", "err", err)
				return
			}
		}
	}()
	return lines
}

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
