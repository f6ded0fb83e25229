package server

import (
	"encoding/json"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/assent-sh/assent/config"
)

// outputSchema is every tool's result: the system_command seed's result
// ({stdout, stderr, exitCode, duration}) with the duration's unit in its
// name, and the flags that say the output is not all there. It is a
// constant, turned into a fresh RawMessage per tool, so no tool can reach
// another's bytes.
const outputSchema = `{"type":"object","properties":{` +
	`"stdout":{"type":"string","description":"standard output, up to the tool's cap"},` +
	`"stderr":{"type":"string","description":"standard error, up to the tool's cap"},` +
	`"exitCode":{"type":"integer","description":"exit status; 128+n when signal n ended it"},` +
	`"durationMs":{"type":"integer","description":"wall time of the run in milliseconds"},` +
	`"truncated":{"type":"boolean","description":"stdout or stderr passed its cap and was cut"},` +
	`"timedOut":{"type":"boolean","description":"the tool's timeout ended the run"},` +
	`"signal":{"type":"string","description":"the signal that ended the program, if one did"},` +
	`"edited":{"type":"object","description":"present when the operator edited the command before it ran",` +
	`"properties":{"ran":{"type":"array","items":{"type":"string"},"description":"the argv that ran"},` +
	`"asked":{"type":"array","items":{"type":"string"},"description":"the argv the call expanded to"}},` +
	`"required":["ran","asked"],"additionalProperties":false}},` +
	`"required":["stdout","stderr","exitCode","durationMs","truncated","timedOut"],"additionalProperties":false}`

// mcpTool describes a config tool to MCP clients. The annotations are all
// set, never left to a client's defaults: readOnlyHint is the operator's
// read_only, destructiveHint its opposite, idempotentHint true only for
// read-only tools (running them twice changes nothing). openWorldHint is
// always true: assent runs programs it cannot see into, and read_only says
// nothing about whether one reaches the network.
func mcpTool(t *config.Tool) mcp.Tool {
	return mcp.Tool{
		Name:            t.Name,
		Description:     config.PlainDescription(t.Description),
		RawInputSchema:  t.InputSchema(),
		RawOutputSchema: json.RawMessage(outputSchema),
		Annotations: mcp.ToolAnnotation{
			Title:           t.Name,
			ReadOnlyHint:    mcp.ToBoolPtr(t.ReadOnly),
			DestructiveHint: mcp.ToBoolPtr(!t.ReadOnly),
			IdempotentHint:  mcp.ToBoolPtr(t.ReadOnly),
			OpenWorldHint:   mcp.ToBoolPtr(true),
		},
	}
}
