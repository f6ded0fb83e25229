package server

import (
	"fmt"
	"strings"
	"time"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/assent-sh/assent/exec"
	"github.com/assent-sh/assent/queue"
)

// callResult is the structured content of a call that ran; it matches
// outputSchema.
type callResult struct {
	Stdout     string `json:"stdout"`
	Stderr     string `json:"stderr"`
	ExitCode   int    `json:"exitCode"`
	DurationMs int64  `json:"durationMs"`
	Truncated  bool   `json:"truncated"`
	TimedOut   bool   `json:"timedOut"`
	Signal     string `json:"signal,omitempty"`
}

// result turns how Submit ended into what the client receives. A run that
// exits, with any code, is a normal result. Everything else is isError
// with a message an agent can act on: the argument refusal, the limit
// (retryable), the denial with who denied and why, a timeout or kill with
// the partial output.
func result(out queue.Outcome, err error) *mcp.CallToolResult {
	if err != nil {
		return mcp.NewToolResultError(err.Error())
	}
	c := out.Call
	switch c.Status {
	case queue.Denied:
		return mcp.NewToolResultError(denial(c))
	case queue.Cancelled:
		return mcp.NewToolResultError("cancelled: " + c.Reason)
	case queue.Done:
		if c.Result != nil {
			return ranResult(c, *c.Result)
		}
	}
	return mcp.NewToolResultError(fmt.Sprintf("the call ended %s without a result: %s", c.Status, c.Reason))
}

// denial says who denied the call and why.
func denial(c queue.Call) string {
	switch {
	case c.Decider == queue.ByRule && c.Decision.Rule != "":
		return fmt.Sprintf("denied by rule %s: %s", c.Decision.Rule, c.Reason)
	case c.Decider == queue.ByOperator && c.Reason == "":
		return "denied by the operator"
	case c.Decider == queue.ByOperator:
		return "denied by the operator: " + c.Reason
	}
	return "denied: " + c.Reason
}

// ranResult describes a call whose program ran, or was to run.
func ranResult(c queue.Call, r exec.Result) *mcp.CallToolResult {
	sc := callResult{
		Stdout: text(r.Stdout.Data), Stderr: text(r.Stderr.Data),
		ExitCode: r.ExitCode, DurationMs: r.Duration.Milliseconds(),
		Truncated: r.Stdout.Truncated || r.Stderr.Truncated, TimedOut: r.TimedOut, Signal: r.Signal,
	}
	var problem string
	switch {
	case r.StartError != "" && r.Cancelled:
		return mcp.NewToolResultError(r.StartError)
	case r.StartError != "":
		return mcp.NewToolResultError(fmt.Sprintf("could not start %s: %s", c.Command.Path, r.StartError))
	case c.Killed:
		problem = "killed by the operator"
	case r.TimedOut:
		problem = "timed out after " + timeoutOf(c, r).String()
	case r.OverflowKilled:
		problem = "killed because its output passed the tool's cap of " + formatSize(overflowCap(r)) + " (on_overflow: kill)"
	case r.Cancelled:
		problem = "cancelled while running: the client withdrew the call or assent shut down"
	}
	body := transcript(sc, r)
	if problem == "" {
		return mcp.NewToolResultStructured(sc, body)
	}
	res := mcp.NewToolResultStructured(sc, problem+"; partial output:\n"+body)
	res.IsError = true
	return res
}

// timeoutOf is the limit the call ran under.
func timeoutOf(c queue.Call, r exec.Result) time.Duration {
	if c.Command.Timeout > 0 {
		return c.Command.Timeout
	}
	return r.Duration.Round(time.Millisecond)
}

// overflowCap is the cap a stream passed: what was kept of it.
func overflowCap(r exec.Result) int64 {
	if r.Stdout.Truncated {
		return int64(len(r.Stdout.Data))
	}
	return int64(len(r.Stderr.Data))
}

// transcript is the text block a model reads: stdout, stderr under a
// heading when there is any, and one status line in brackets.
func transcript(sc callResult, r exec.Result) string {
	var b strings.Builder
	b.WriteString(sc.Stdout)
	if sc.Stdout != "" && !strings.HasSuffix(sc.Stdout, "\n") {
		b.WriteByte('\n')
	}
	if sc.Stderr != "" {
		b.WriteString("stderr:\n")
		b.WriteString(sc.Stderr)
		if !strings.HasSuffix(sc.Stderr, "\n") {
			b.WriteByte('\n')
		}
	}
	b.WriteString("[" + statusLine(r) + "]")
	return b.String()
}

// statusLine is "exit 1 · 12 ms", with the signal and any truncation.
func statusLine(r exec.Result) string {
	parts := []string{fmt.Sprintf("exit %d", r.ExitCode)}
	if r.Signal != "" {
		parts[0] = "ended by " + r.Signal
	}
	parts = append(parts, formatDuration(r.Duration))
	for _, s := range []struct {
		name string
		out  exec.Output
	}{{"stdout", r.Stdout}, {"stderr", r.Stderr}} {
		if s.out.Truncated {
			parts = append(parts, fmt.Sprintf("%s truncated at %s of %s", s.name,
				formatSize(int64(len(s.out.Data))), formatSize(s.out.Bytes)))
		}
	}
	return strings.Join(parts, " · ")
}

// text is output as a JSON string carries it: invalid UTF-8 replaced.
func text(b []byte) string { return strings.ToValidUTF8(string(b), "\uFFFD") }

// formatDuration writes 12 ms, 1.5 s or 2m3s.
func formatDuration(d time.Duration) string {
	switch {
	case d < time.Second:
		return fmt.Sprintf("%d ms", d.Milliseconds())
	case d < time.Minute:
		return strings.TrimSuffix(fmt.Sprintf("%.1f", d.Seconds()), ".0") + " s"
	}
	return d.Round(time.Second).String()
}

// formatSize writes 512 bytes, 64 KiB, 1 MiB or 3.2 GiB.
func formatSize(n int64) string {
	const unit = 1024
	if n < unit {
		return fmt.Sprintf("%d bytes", n)
	}
	v, i := float64(n), -1
	for v >= unit && i < 3 {
		v /= unit
		i++
	}
	return strings.TrimSuffix(fmt.Sprintf("%.1f", v), ".0") + " " + []string{"KiB", "MiB", "GiB", "TiB"}[i]
}
