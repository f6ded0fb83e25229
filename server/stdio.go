package server

import (
	"context"
	"io"
)

// StdioSessionID is the session id of the client on stdin and stdout.
const StdioSessionID = "stdio"

// ServeStdio serves MCP on in and out, one client, until in ends or ctx
// ends. Either way the context of every call in flight ends with it, so
// a pending call is withdrawn and a running one killed before ServeStdio
// returns; it returns nil at the end of input and ctx's error when ctx
// ends. Nothing but MCP messages is written to out. When out is a pipe, a
// message longer than it holds grows it first (roomyOut).
func (s *Server) ServeStdio(ctx context.Context, in io.Reader, out io.Writer) error {
	return s.serveLines(ctx, StdioSessionID, in, roomyOut(out))
}
