package server

import (
	"sync"
	"sync/atomic"

	"github.com/mark3labs/mcp-go/mcp"
	mcpserver "github.com/mark3labs/mcp-go/server"
)

// notesBuffer is how many notifications (progress, tools/list_changed) may
// wait for a connection's writer before mcp-go drops the next one.
const notesBuffer = 100

// lineSession is one client of a line-delimited connection: stdio, or one
// relay on the local socket. mcp-go's own stdio transport keeps a single
// session for the whole process, so two relayed agents would share a
// client name and each other's notifications; each connection here has
// its own.
type lineSession struct {
	id    string
	notes chan mcp.JSONRPCNotification
	ready atomic.Bool
	// registered is closed once mcp-go holds the server's first tool set.
	registered <-chan struct{}

	mu   sync.Mutex
	info mcp.Implementation
	caps mcp.ClientCapabilities
}

var (
	_ mcpserver.ClientSession         = (*lineSession)(nil)
	_ mcpserver.SessionWithClientInfo = (*lineSession)(nil)
)

func newLineSession(id string, registered <-chan struct{}) *lineSession {
	return &lineSession{id: id, notes: make(chan mcp.JSONRPCNotification, notesBuffer), registered: registered}
}

// SessionID is the session's id, as the journal records it.
func (s *lineSession) SessionID() string { return s.id }

// NotificationChannel is where mcp-go puts notifications for this client.
func (s *lineSession) NotificationChannel() chan<- mcp.JSONRPCNotification { return s.notes }

// Initialize marks the session ready for notifications.
func (s *lineSession) Initialize() { s.ready.Store(true) }

// Initialized reports whether the client has initialized (or, in the
// 2026-07-28 era, sent a request), once mcp-go holds the server's first
// tool set: the tools/list_changed mcp-go sends as it takes that set is not
// for a client that was given the set in its first tools/list.
func (s *lineSession) Initialized() bool {
	if !s.ready.Load() {
		return false
	}
	select {
	case <-s.registered:
		return true
	default:
		return false
	}
}

// GetClientInfo returns what the client said it is.
func (s *lineSession) GetClientInfo() mcp.Implementation {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.info
}

// SetClientInfo records what the client said it is.
func (s *lineSession) SetClientInfo(info mcp.Implementation) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.info = info
}

// GetClientCapabilities returns the client's capabilities.
func (s *lineSession) GetClientCapabilities() mcp.ClientCapabilities {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.caps
}

// SetClientCapabilities records the client's capabilities.
func (s *lineSession) SetClientCapabilities(caps mcp.ClientCapabilities) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.caps = caps
}
