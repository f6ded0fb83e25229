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
	// receives ordered chunks of output while the command runs, from one
	// goroutine at a time and never after Run returns; it must not block for
	// long, and chunks it misses are still in the Result. A program that
	// cannot be started is reported in the Result, not as a panic.
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

// Chunk is a piece of live output, in the order the runner read it. Only
// bytes within the stream's cap are sent live, so the chunks of one stream,
// Skipped counts included, add up to exactly what the Result keeps of it.
type Chunk struct {
	// Stream is the stream the bytes came from.
	Stream Stream
	// Data is the bytes, in the order they were read. The receiver owns it.
	Data []byte
	// Time is when the first of these bytes was read.
	Time time.Time
	// Skipped counts bytes of this stream that were left out just before
	// Data because the receiver fell behind; they are still in the Result.
	// A last chunk may carry Skipped with no Data.
	Skipped int64
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
	// 126 when the program exists but may not be executed, 127 when it could
	// not be started for any other reason.
	ExitCode int `json:"exit_code"`
	// Signal names the signal that ended the child ("SIGKILL"), if any.
	Signal string `json:"signal,omitempty"`
	// Duration is the wall time from start to the end of the wait.
	Duration time.Duration `json:"duration"`
	// TimedOut is true when the command's timeout ended it.
	TimedOut bool `json:"timed_out,omitempty"`
	// Cancelled is true when the caller's context ended it.
	Cancelled bool `json:"cancelled,omitempty"`
	// OverflowKilled is true when a stream passed its cap under the Kill
	// overflow action and the process group was ended for it.
	OverflowKilled bool `json:"overflow_killed,omitempty"`
	// StartError says why the program could not be started, if it could not.
	StartError string `json:"start_error,omitempty"`
	// Refused is true when the runner would not start the command: it was
	// invalid, the program or a path argument changed since it was shown,
	// or it could not be confined as the sandbox mode requires. StartError
	// says why. It is false when the kernel failed the start.
	Refused bool `json:"refused,omitempty"`
	// Confinement says what held the run: the sandbox, the network, the
	// containment of its processes, or why it ran unconfined.
	Confinement Confinement `json:"confinement"`
}
