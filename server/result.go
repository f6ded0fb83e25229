package server

import (
	"fmt"
	"strings"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/assent-sh/assent/exec"
	"github.com/assent-sh/assent/human"
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
	// Edited is set when the operator edited the command: the agent is
	// told what ran instead of what it asked for.
	Edited *edited `json:"edited,omitempty"`
}

// edited is what ran beside what the call asked for.
type edited struct {
	Ran   []string `json:"ran"`
	Asked []string `json:"asked"`
}

// result turns how Submit ended into what the client receives. A run that
// exits, with any code, is a normal result. Everything else is isError
// with a message an agent can act on: the argument refusal, the limit
// (retryable), the denial with who denied and why, a timeout or kill with
// the partial output. How the call ended is the queue's account of it
// (Call.Ending, Call.EndingText); nothing here works it out again.
func result(out queue.Outcome, err error) *mcp.CallToolResult {
	if err != nil {
		return mcp.NewToolResultError(err.Error())
	}
	c := out.Call
	switch c.Ending {
	case queue.EndDenied:
		return mcp.NewToolResultError(denial(c))
	case queue.Withdrawn:
		return mcp.NewToolResultError("cancelled: " + c.Reason)
	case queue.EndRefused, "":
		return mcp.NewToolResultError(fmt.Sprintf("the call ended %s without a result: %s", c.Status, c.Reason))
	}
	if c.Result == nil || c.Started.IsZero() {
		// Approved, then ended before it started.
		return mcp.NewToolResultError(c.EndingText())
	}
	return ranResult(c, *c.Result)
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
	if c.Ending == queue.NotStarted {
		return mcp.NewToolResultError(c.EndingText())
	}
	sc := callResult{
		Stdout: text(r.Stdout.Data), Stderr: text(r.Stderr.Data),
		ExitCode: r.ExitCode, DurationMs: r.Duration.Milliseconds(),
		Truncated: r.Stdout.Truncated || r.Stderr.Truncated, TimedOut: r.TimedOut, Signal: r.Signal,
	}
	body := transcript(sc, r)
	if c.Original != nil {
		sc.Edited = &edited{Ran: c.Command.Argv, Asked: c.Original.Argv}
		body = "The operator edited the command before it ran; what ran: " + c.Command.String() + "\n" + body
	}
	if c.Ending == queue.Exited {
		return mcp.NewToolResultStructured(sc, body)
	}
	output := "; partial output:\n"
	if sc.Stdout == "" && sc.Stderr == "" {
		output = "; no output\n"
	}
	res := mcp.NewToolResultStructured(sc, c.EndingText()+output+body)
	res.IsError = true
	return res
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
	parts = append(parts, human.Duration(r.Duration))
	for _, s := range []struct {
		name string
		out  exec.Output
	}{{"stdout", r.Stdout}, {"stderr", r.Stderr}} {
		if s.out.Truncated {
			parts = append(parts, fmt.Sprintf("%s truncated at %s of %s", s.name,
				human.Size(int64(len(s.out.Data))), human.Size(s.out.Bytes)))
		}
	}
	return strings.Join(parts, " · ")
}

// text is output as a JSON string carries it: invalid UTF-8 replaced.
func text(b []byte) string { return strings.ToValidUTF8(string(b), "\uFFFD") }
