package server

import (
	"context"
	"io"
	"log/slog"

	mcpserver "github.com/mark3labs/mcp-go/server"
)

// Worker limits of mcp-go's stdio transport: it runs tool calls on a
// fixed pool of at most 100 goroutines, and queues the rest.
const (
	maxStdioWorkers = 100
	stdioQueue      = 10000
	// workerHeadroom is the workers kept beyond the queue's limits, for
	// calls the operator approved that wait for a running slot (neither
	// pending nor running) and for calls about to be refused.
	workerHeadroom = 20
)

// ServeStdio serves MCP on in and out, one client, until in ends or ctx
// ends. Either way the context of every call in flight ends with it, so
// a pending call is withdrawn and a running one killed before ServeStdio
// returns; it returns nil at the end of input. Nothing but MCP messages is
// written to out.
//
// Each tool call holds one of mcp-go's stdio workers until it ends, and a
// call waiting for an operator may wait long, so the pool is sized to the
// queue's limits: every call the queue lets wait or run has a worker, plus
// headroom, up to mcp-go's maximum of 100.
func (s *Server) ServeStdio(ctx context.Context, in io.Reader, out io.Writer) error {
	running, pending := s.q.Limits()
	workers := running + pending + workerHeadroom
	if workers > maxStdioWorkers {
		s.log.Warn("the stdio transport has at most 100 workers; calls beyond them wait for one before the queue sees them",
			"max_running", running, "max_pending", pending)
		workers = maxStdioWorkers
	}
	ss := mcpserver.NewStdioServer(s.mcp)
	ss.SetErrorLogger(slog.NewLogLogger(s.log.Handler(), slog.LevelWarn))
	mcpserver.WithWorkerPoolSize(workers)(ss)
	mcpserver.WithQueueSize(stdioQueue)(ss)
	return ss.Listen(ctx, in, out)
}
