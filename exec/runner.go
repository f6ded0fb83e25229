package exec

import (
	"context"
	"time"
)

// Runner runs one command to completion. The real runner is Local; tests of
// the layers above use a fake that fails on any command it did not expect.
type Runner interface {
	// Run starts cmd and blocks until it has ended and every child of its
	// process group is gone or the kill bound has passed. out, when non-nil,
	// receives ordered chunks of output while the command runs; it must not
	// block for long, and chunks it misses are still in the Result. A program
	// that cannot be started is reported in the Result, not as a panic.
	Run(ctx context.Context, cmd Command, out func(Chunk)) Result
}

// Stream names one of a child's output streams.
type Stream uint8

const (
	// Stdout is the child's standard output.
	Stdout Stream = 1
	// Stderr is the child's standard error.
	Stderr Stream = 2
)

// String returns "stdout" or "stderr".
func (s Stream) String() string {
	switch s {
	case Stdout:
		return "stdout"
	case Stderr:
		return "stderr"
	}
	return "stream?"
}

// Chunk is a piece of live output, in the order the runner read it.
type Chunk struct {
	Stream Stream
	Data   []byte
	Time   time.Time
}

// Output is what was kept of one stream.
type Output struct {
	// Data is the stream's bytes up to the cap.
	Data []byte `json:"-"`
	// Bytes is how many bytes the child wrote in all, kept or not.
	Bytes int64 `json:"bytes"`
	// Truncated is true when Bytes exceeds len(Data).
	Truncated bool `json:"truncated,omitempty"`
}

// Result is how a run ended. A non-zero exit is a normal result.
type Result struct {
	Stdout Output `json:"stdout"`
	Stderr Output `json:"stderr"`
	// ExitCode is the child's exit status; 128+n when signal n ended it,
	// 127 when the program could not be started.
	ExitCode int `json:"exit_code"`
	// Signal names the signal that ended the child ("SIGKILL"), if any.
	Signal string `json:"signal,omitempty"`
	// Duration is the wall time from start to the end of the wait.
	Duration time.Duration `json:"duration"`
	// TimedOut is true when the command's timeout ended it.
	TimedOut bool `json:"timed_out,omitempty"`
	// Cancelled is true when the caller's context ended it.
	Cancelled bool `json:"cancelled,omitempty"`
	// StartError says why the program could not be started, if it could not.
	StartError string `json:"start_error,omitempty"`
}
