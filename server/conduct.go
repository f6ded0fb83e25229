package server

import (
	"context"
	"encoding/json"
	"log/slog"
	"mime"
	"net/http"
	"sync"
	"sync/atomic"

	"github.com/mark3labs/mcp-go/mcp"
)

// conduct holds Streamable HTTP to the letter of the specification where
// mcp-go v1.2.1 does not, between the guard and mcp-go:
//   - methods other than GET, POST and DELETE get 405 with Allow, and a
//     POST whose Content-Type is not JSON gets 415;
//   - a batch, a null id or an id without a method gets a JSON-RPC error
//     saying so (see parseMessage);
//   - 2025-11-25 sessions are those assent issued and has not ended
//     (sessions): an unknown id gets 404, a request without one 400, and
//     DELETE ends the session;
//   - a 2026-07-28 notification is accepted without the _meta
//     protocolVersion triple, which the specification defines for
//     requests only (mcp-go refused it with 400, and go-sdk v1.8 then
//     closed its session);
//   - a request cancelled with notifications/cancelled gets no response.
//
// It also answers a 2025-11-25 tools/call itself, as mcp-go would (see
// direct), since mcp-go's handling of a POST costs a call more than the
// rest of HTTP does.
type conduct struct {
	s        *Server
	next     http.Handler // mcp-go's transport
	sessions *sessions
	log      *slog.Logger

	mu    sync.Mutex
	calls map[string]*httpCall // legacy requests in flight, by session and id
}

// httpCall is a legacy request in flight, cancellable by its client.
type httpCall struct {
	cancel    context.CancelFunc
	cancelled atomic.Bool
}

func (c *conduct) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	switch r.Method {
	case http.MethodPost:
		c.post(w, r)
	case http.MethodGet, http.MethodDelete:
		c.sessionVerb(w, r)
	default:
		w.Header().Set("Allow", "GET, POST, DELETE")
		http.Error(w, r.Method+" is not supported on the MCP endpoint (use POST, GET or DELETE)", http.StatusMethodNotAllowed)
	}
}

func (c *conduct) post(w http.ResponseWriter, r *http.Request) {
	if mt, _, err := mime.ParseMediaType(r.Header.Get("Content-Type")); err != nil || mt != "application/json" {
		http.Error(w, "Content-Type must be application/json", http.StatusUnsupportedMediaType)
		return
	}
	body, err := bodyOf(r) // the guard has capped it
	if err != nil {
		http.Error(w, "the request body could not be read", http.StatusBadRequest)
		return
	}
	m := parseMessage(body)
	switch m.kind {
	case kindBlank:
		m = invalid(mcp.INVALID_REQUEST, "the request body is empty")
		fallthrough
	case kindInvalid:
		writeJSON(w, http.StatusBadRequest, m.errorResponse())
		return
	}
	if mcp.IsModernProtocol(r.Header.Get(mcp.HeaderProtocolVersion)) || mcp.IsModernProtocol(m.metaVersion) {
		c.modern(w, r, m)
		return
	}
	sid := r.Header.Get(mcp.HeaderSessionID)
	if m.kind == kindRequest && m.method == string(mcp.MethodInitialize) {
		c.initialize(w, r, m)
		return
	}
	client, ok := c.begin(w, sid)
	if !ok {
		return
	}
	defer c.sessions.done(sid)
	switch {
	case m.kind == kindNotification && m.method == string(mcp.MethodNotificationCancelled):
		c.cancel(sid, m.cancels)
	case m.kind == kindRequest:
		c.request(w, r, sid, client, m)
		return
	}
	c.next.ServeHTTP(w, r)
}

// modern serves a 2026-07-28 message. A notification changes nothing a
// stateless server keeps, and is accepted as it is: notifications/cancelled
// in particular, since a 2026-07-28 request is cancelled by closing its
// stream (mcp-go and go-sdk both do), and its id alone, with no session,
// names no single client's request.
func (c *conduct) modern(w http.ResponseWriter, r *http.Request, m message) {
	if m.kind == kindNotification {
		w.WriteHeader(http.StatusAccepted)
		return
	}
	c.next.ServeHTTP(w, r)
}

// initialize lets mcp-go issue a session and records its id, and the
// client's name, as the answer's header goes out: a client may send its
// next request the moment it reads the id, before mcp-go's handler has
// returned.
func (c *conduct) initialize(w http.ResponseWriter, r *http.Request, m message) {
	if !c.sessions.room() {
		http.Error(w, "too many sessions are open, each with a request in flight; retry later", http.StatusServiceUnavailable)
		return
	}
	// Read as mcp-go reads them: params it cannot decode get an error
	// answer and a session, but no client.
	var p mcp.InitializeParams
	if json.Unmarshal(m.params, &p) != nil {
		p.ClientInfo.Name = ""
	}
	c.next.ServeHTTP(&watchedWriter{ResponseWriter: w, onHeader: func(status int, h http.Header) {
		if id := h.Get(mcp.HeaderSessionID); status == http.StatusOK && id != "" {
			c.sessions.add(id, p.ClientInfo.Name)
		}
	}}, r)
}

// request serves a legacy request whose client may cancel it: its context
// ends then, and mcp-go, finding it ended, writes no response.
func (c *conduct) request(w http.ResponseWriter, r *http.Request, sid, client string, m message) {
	ctx, cancel := context.WithCancel(r.Context())
	call := &httpCall{cancel: cancel}
	key := sid + "\x00" + string(m.id)
	c.mu.Lock()
	c.calls[key] = call
	c.mu.Unlock()
	defer func() {
		c.mu.Lock()
		if c.calls[key] == call {
			delete(c.calls, key)
		}
		c.mu.Unlock()
		cancel()
	}()
	if resp, ok := c.direct(ctx, r, sid, client, m); ok {
		if !call.cancelled.Load() {
			writeJSON(w, http.StatusOK, resp)
			return
		}
		w.Header().Set("Content-Type", "text/event-stream")
		w.WriteHeader(http.StatusOK)
		return
	}
	rw := &watchedWriter{ResponseWriter: w}
	c.next.ServeHTTP(rw, r.WithContext(ctx))
	if call.cancelled.Load() && rw.status == 0 {
		// A request is answered with JSON or an event stream: an empty
		// stream it is, carrying no response.
		w.Header().Set("Content-Type", "text/event-stream")
		w.WriteHeader(http.StatusOK)
	}
}

// direct answers a tools/call as mcp-go's transport would answer it with
// JSON: the same body (Server.callTool), for the same requests. It reports
// false, leaving the request to mcp-go, for a call with a progress token
// (its notifications go on an event stream mcp-go opens) and for a
// protocol version header mcp-go refuses.
func (c *conduct) direct(ctx context.Context, r *http.Request, sid, client string, m message) ([]byte, bool) {
	if m.method != string(mcp.MethodToolsCall) {
		return nil, false
	}
	if v := r.Header.Get(mcp.HeaderProtocolVersion); v != "" && !mcp.IsValidProtocolVersion(v) {
		return nil, false
	}
	return c.s.callTool(withCaller(ctx, client, sid), m, false)
}

// cancel ends the session's request with the id, if it is in flight.
func (c *conduct) cancel(sid string, id []byte) {
	c.mu.Lock()
	call := c.calls[sid+"\x00"+string(id)]
	c.mu.Unlock()
	if call != nil {
		call.cancelled.Store(true)
		call.cancel()
	}
}

// sessionVerb serves GET (the session's stream) and DELETE (its end).
func (c *conduct) sessionVerb(w http.ResponseWriter, r *http.Request) {
	if mcp.IsModernProtocol(r.Header.Get(mcp.HeaderProtocolVersion)) {
		c.next.ServeHTTP(w, r) // 405: no sessions in 2026-07-28
		return
	}
	sid := r.Header.Get(mcp.HeaderSessionID)
	if r.Method == http.MethodDelete {
		if sid == "" || !c.sessions.remove(sid) {
			c.begin(w, sid) // answers 400 or 404
			return
		}
		c.next.ServeHTTP(w, r)
		return
	}
	if _, ok := c.begin(w, sid); !ok {
		return
	}
	defer c.sessions.done(sid)
	c.next.ServeHTTP(w, r)
}

// begin marks a request of the live session sid in flight and returns
// its client's name, or answers 400 (no session id) or 404 (not a live
// session) and returns false.
func (c *conduct) begin(w http.ResponseWriter, sid string) (client string, ok bool) {
	if sid == "" {
		http.Error(w, "the "+mcp.HeaderSessionID+" header is required: send initialize first", http.StatusBadRequest)
		return "", false
	}
	if client, ok = c.sessions.begin(sid); !ok {
		http.Error(w, "no such session: it ended, expired, or was never issued; send initialize again", http.StatusNotFound)
	}
	return client, ok
}

// forget makes mcp-go drop a session assent ended, as its client's DELETE
// would have.
func (c *conduct) forget(id string) {
	req, err := http.NewRequest(http.MethodDelete, EndpointPath, nil)
	if err != nil {
		return
	}
	req.Header.Set(mcp.HeaderSessionID, id)
	c.next.ServeHTTP(&watchedWriter{ResponseWriter: discard{}}, req)
	c.log.Debug("ended an idle HTTP session", "session", id)
}

// writeJSON writes a JSON body with status.
func writeJSON(w http.ResponseWriter, status int, body []byte) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_, _ = w.Write(append(body, '\n'))
}
