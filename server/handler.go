package server

import (
	"context"
	"log/slog"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	mcpserver "github.com/mark3labs/mcp-go/server"

	"github.com/assent-sh/assent/config"
	"github.com/assent-sh/assent/queue"
)

// handler submits calls of one tool to the queue. The tool is bound when
// the tool set is built, so a call keeps the definition it was made
// against even if the tool set is replaced while it waits or runs.
func (s *Server) handler(t *config.Tool) mcpserver.ToolHandlerFunc {
	return func(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		args, ok := arguments(req)
		if !ok {
			return mcp.NewToolResultError("tool " + t.Name + ": arguments must be a JSON object"), nil
		}
		r := queue.Request{Tool: t, Args: args, Origin: "mcp"}
		r.Client, r.Session = identify(ctx)
		if req.Params.Meta != nil && req.Params.Meta.ProgressToken != nil {
			p := s.startProgress(ctx, req.Params.Meta.ProgressToken)
			defer p.stop()
			r.Watch = p.watch
		}
		// Submit returns when the call has ended: decided and run, denied,
		// refused, or withdrawn because ctx ended (the client cancelled,
		// disconnected, or stdin closed). A handler waiting for an
		// operator holds its transport worker all that time.
		out, err := s.q.Submit(ctx, r)
		s.logCall(t, r, out, err)
		return result(out, err), nil
	}
}

// logCall writes one line per answered call: at Info level for a call
// that did not run to its exit (refused, denied, withdrawn, timed out,
// killed), which an operator without a console should see; at Debug level
// for an ordinary run, which the journal records anyway (`assent log`) and
// which costs a write per call. slog quotes what an agent wrote, so its
// text cannot forge log lines.
func (s *Server) logCall(t *config.Tool, r queue.Request, out queue.Outcome, err error) {
	c := out.Call
	level := slog.LevelInfo
	if err == nil && c.Ending == queue.Exited {
		level = slog.LevelDebug
	}
	if !s.log.Enabled(context.Background(), level) {
		return // the attributes are not built for a line nobody reads
	}
	attrs := []any{"tool", t.Name, "client", r.Client}
	if c.ID != 0 {
		attrs = append(attrs, "call", c.ID.String())
	}
	switch {
	case err != nil:
		attrs = append(attrs, "status", "refused", "reason", err.Error())
	default:
		attrs = append(attrs, "status", string(c.Status), "ending", string(c.Ending), "by", string(c.Decider))
		if c.Decision.Rule != "" {
			attrs = append(attrs, "rule", c.Decision.Rule)
		}
		if c.Reason != "" {
			attrs = append(attrs, "reason", c.Reason)
		}
		if res := c.Result; res != nil {
			attrs = append(attrs, "exit", res.ExitCode, "duration", res.Duration.Round(time.Microsecond))
		}
	}
	s.log.Log(context.Background(), level, "call", attrs...)
}

// arguments returns the call's arguments as an object; absent arguments
// are an empty object, anything else that is not an object is refused.
func arguments(req mcp.CallToolRequest) (map[string]any, bool) {
	switch a := req.Params.Arguments.(type) {
	case nil:
		return map[string]any{}, true
	case map[string]any:
		return a, true
	}
	return nil, false
}

// identify names the client and its session for policy, the journal and
// the console. A modern (2026-07-28) client sends its name with every
// request; a legacy one sent it once, in initialize, and its session
// remembers it. The name is the client's own claim.
func identify(ctx context.Context) (client, session string) {
	if c, ok := ctx.Value(callerKey{}).(caller); ok {
		return c.client, c.session
	}
	if info := mcpserver.RequestProtocolInfoFromContext(ctx); info != nil && info.ClientInfo != nil {
		client = info.ClientInfo.Name
	}
	sess := mcpserver.ClientSessionFromContext(ctx)
	if sess == nil {
		return client, ""
	}
	if client == "" {
		if withInfo, ok := sess.(mcpserver.SessionWithClientInfo); ok {
			client = withInfo.GetClientInfo().Name
		}
	}
	return client, sess.SessionID()
}

// caller is who made a request, for a request served without an mcp-go
// session in its context (an HTTP tools/call answered directly).
type caller struct{ client, session string }

type callerKey struct{}

// withCaller says in ctx who makes the request.
func withCaller(ctx context.Context, client, session string) context.Context {
	return context.WithValue(ctx, callerKey{}, caller{client, session})
}
