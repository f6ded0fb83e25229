package main

import (
	"context"
	"os"
	osexec "os/exec"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"
	mcpserver "github.com/mark3labs/mcp-go/server"
)

// floorEnv, set in the driver's own environment, makes it serve the floor
// server on stdio instead of measuring.
const floorEnv = "ASSENT_LOAD_FLOOR"

// serveFloor is the least an MCP exec server can be with mcp-go: one tool
// whose handler runs echo with os/exec and returns its output, with no
// checks, policy, journal or process control. It is what mcp-go's stdio
// round trip costs on top of bare exec, the floor under assent's number.
func serveFloor() error {
	s := mcpserver.NewMCPServer("floor", "1", mcpserver.WithToolCapabilities(true))
	env := echoEnv()
	s.AddTool(mcp.NewTool("hello"), func(ctx context.Context, _ mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		cmd := osexec.CommandContext(ctx, "echo", "hello")
		cmd.Env = env
		out, err := cmd.Output()
		if err != nil {
			return mcp.NewToolResultError(err.Error()), nil
		}
		return mcp.NewToolResultText(string(out)), nil
	})
	return mcpserver.NewStdioServer(s).Listen(context.Background(), os.Stdin, os.Stdout)
}

// floor spawns this driver as the floor server and calls it over stdio.
func (s *rig) floor(ctx context.Context) (target, error) {
	self, err := os.Executable()
	if err != nil {
		return target{}, err
	}
	tr := transport.NewStdioWithOptions(self, serverEnv(floorEnv+"=1"), nil)
	c := client.NewClient(tr, s.clientOpts...)
	if err := initialize(ctx, c); err != nil {
		return target{}, err
	}
	return mcpTarget("mcp-go floor", c, c.Close), nil
}
