// Package server is assent's MCP front end. It offers the config's tools
// to MCP clients, built at runtime from each tool's parameters, and hands
// every call to the queue, which decides, runs and journals it; the server
// turns the outcome into a tool result an agent can act on. It speaks both
// protocol eras mcp-go serves (stateless 2026-07-28 and initialize-based
// 2025-11-25 and older), over stdio and over Streamable HTTP guarded by a
// bearer token, Host and Origin checks and a body cap. It watches the tool
// files and describes each change, but applies one only when told to.
//
// It knows nothing of the console: the console drives the same queue.
package server

import (
	"encoding/json"
	"errors"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"

	mcpserver "github.com/mark3labs/mcp-go/server"

	"github.com/assent-sh/assent/config"
	"github.com/assent-sh/assent/queue"
)

// Defaults for Options.
const (
	// DefaultProgressInterval is the shortest gap between two progress
	// notifications carrying a call's output.
	DefaultProgressInterval = 250 * time.Millisecond
	// DefaultHeartbeat is how often a call that waits for an operator, or
	// runs without output, tells its client it is still alive, so clients
	// with a 60–120 s request timeout that reset it on progress keep
	// waiting.
	DefaultHeartbeat = 10 * time.Second
)

// Options configure a Server.
type Options struct {
	// Queue takes every call; required.
	Queue *queue.Queue
	// Name and Version are what the server calls itself to clients;
	// default "assent" and "dev".
	Name, Version string
	// Logger receives the server's log lines; default none. Nothing the
	// server logs carries a token.
	Logger *slog.Logger
	// ProgressInterval is the shortest gap between output progress
	// notifications; default DefaultProgressInterval.
	ProgressInterval time.Duration
	// Heartbeat is the gap between "still waiting" progress notifications;
	// default DefaultHeartbeat.
	Heartbeat time.Duration
}

// Server is the MCP server for one queue and one, replaceable, tool set.
type Server struct {
	opts Options
	q    *queue.Queue
	mcp  *mcpserver.MCPServer
	log  *slog.Logger
	// handOnAfter is handOnAfter, but for tests that must tell the two
	// ways a line connection's turn to read passes on apart.
	handOnAfter time.Duration

	mu    sync.Mutex // serializes replacing the tool set
	tools atomic.Pointer[toolSet]
	// registered is closed once mcp-go holds the first tool set, which it
	// takes while the server already serves (see New). Whatever mcp-go
	// answers with the tools waits for it.
	registered chan struct{}
}

// toolSet is the config whose tools are offered, each tool's handler and
// the tools/list answer, replaced together.
type toolSet struct {
	cfg      *config.Config
	handlers map[string]mcpserver.ToolHandlerFunc
	// list is mcp-go's tools/list result for the set, encoded once: 200
	// tools take milliseconds to encode, and a client asks at every start.
	list func() json.RawMessage
}

// instructions tell an agent, once, how this server's tools behave.
const instructions = "Each tool runs one fixed command with your arguments filled in, without a shell. " +
	"A call may wait for a human to approve it. A result with isError explains a refusal or denial " +
	"in words you can act on; a non-zero exit code is an ordinary result."

// New returns a server offering cfg's tools.
func New(cfg *config.Config, opts Options) (*Server, error) {
	if opts.Queue == nil {
		return nil, errors.New("server: a queue is required")
	}
	if cfg == nil {
		return nil, errors.New("server: a config is required")
	}
	if opts.Name == "" {
		opts.Name = "assent"
	}
	if opts.Version == "" {
		opts.Version = "dev"
	}
	if opts.Logger == nil {
		opts.Logger = slog.New(slog.DiscardHandler)
	}
	if opts.ProgressInterval <= 0 {
		opts.ProgressInterval = DefaultProgressInterval
	}
	if opts.Heartbeat <= 0 {
		opts.Heartbeat = DefaultHeartbeat
	}
	s := &Server{opts: opts, q: opts.Queue, log: opts.Logger, handOnAfter: handOnAfter, registered: make(chan struct{})}
	// callTool and listTools answer beside mcp-go's dispatch, and are
	// exact only while no option here acts on tools/call or tools/list
	// (hooks, middleware, schema validation, tool filters, session tools,
	// tasks): an option that does must be mirrored there, or they must go.
	s.mcp = mcpserver.NewMCPServer(opts.Name, opts.Version,
		mcpserver.WithToolCapabilities(true),
		mcpserver.WithInstructions(instructions))
	// mcp-go takes the first set on another core while the client
	// connects (it re-encodes every schema: 1.5 ms of a start with 200
	// tools). On a line connection (stdio, the console's socket),
	// initialize, the initialize era's tools/list without a cursor, and
	// tools/call are answered without it; everything else that goes to
	// mcp-go waits for it (MCP), HTTP included, which starts serving only
	// then. A line session counts as initialized for mcp-go's
	// notifications only once it is done, so the tools/list_changed
	// mcp-go sends as it takes the set reaches nobody.
	s.mu.Lock()
	defer s.mu.Unlock()
	register := s.offerLocked(cfg)
	go func() {
		defer close(s.registered)
		register()
	}()
	return s, nil
}

// SetTools replaces the tool set with cfg's and tells connected clients
// (tools/list_changed). Calls already submitted finish with the tool they
// were called with.
func (s *Server) SetTools(cfg *config.Config) {
	s.mu.Lock()
	defer s.mu.Unlock()
	register := s.offerLocked(cfg)
	<-s.registered // mcp-go takes the sets in order
	register()
}

// offerLocked offers cfg's tools, and returns the function that hands
// them to mcp-go, which announces them (tools/list_changed).
func (s *Server) offerLocked(cfg *config.Config) (register func()) {
	tools := make([]mcpserver.ServerTool, 0, len(cfg.Tools))
	set := &toolSet{cfg: cfg, handlers: make(map[string]mcpserver.ToolHandlerFunc, len(cfg.Tools))}
	for _, t := range cfg.Tools {
		h := recovered(t.Name, s.handler(t))
		set.handlers[t.Name] = h
		tools = append(tools, mcpserver.ServerTool{Tool: mcpTool(t), Handler: h})
	}
	// The list is written on another core while mcp-go takes the tools
	// (it re-encodes every schema) and the client connects; only its
	// fallback, mcp-go's own answer, needs them taken.
	taken := make(chan struct{})
	set.list = sync.OnceValue(func() json.RawMessage { return s.encodeList(tools, taken) })
	go set.list()
	// The set is offered before mcp-go announces it (tools/list_changed),
	// so a client that lists the tools as soon as it hears is answered
	// from it.
	s.tools.Store(set)
	return func() {
		defer close(taken)
		s.mcp.SetTools(tools...)
	}
}

// Config returns the config whose tools are offered now.
func (s *Server) Config() *config.Config { return s.tools.Load().cfg }

// MCP returns the underlying mcp-go server, for transports this package
// does not wrap (an in-process client in tests or a relay), and for every
// path of this package that asks mcp-go for what needs the tools: it
// returns once mcp-go holds the first tool set.
func (s *Server) MCP() *mcpserver.MCPServer {
	<-s.registered
	return s.mcp
}
