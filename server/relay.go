package server

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"strings"
	"sync"

	"github.com/mark3labs/mcp-go/mcp"
)

// maxRelayLine bounds one JSON-RPC message read from the stdio client.
const maxRelayLine = 16 << 20

// RelayOptions say where the console serves.
type RelayOptions struct {
	// URL is the console's MCP endpoint, from its runtime file.
	URL string
	// Token is the console's bearer token.
	Token string
	// Client makes the HTTP requests; default one without timeouts (a
	// call may wait for the operator for a long time).
	Client *http.Client
	// Logger receives what the relay notices; default none. Never stdout.
	Logger *slog.Logger
}

// Relay carries MCP messages between an agent that speaks stdio (in, out)
// and the console's Streamable HTTP endpoint, so an agent that can only
// spawn its MCP servers reaches the console a person is watching. Each
// request becomes a POST, answered as JSON or as an event stream whose
// messages (progress, then the response) are written to out as lines;
// requests run concurrently, because one may wait for the operator while
// others go on. A cancelled request's POST is dropped, which withdraws the
// call from the console's queue. When in ends, every request still in
// flight is dropped the same way and Relay returns.
func Relay(ctx context.Context, o RelayOptions, in io.Reader, out io.Writer) error {
	if o.Client == nil {
		o.Client = &http.Client{}
	}
	if o.Logger == nil {
		o.Logger = slog.New(slog.DiscardHandler)
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	r := &relay{o: o, out: out, inflight: map[string]context.CancelFunc{}}
	// A request cancelled while its connection was being dialled leaves
	// that connection idle and unused; closing it at the end lets the
	// console see the relay go (a server counts an unused connection as
	// busy for seconds).
	defer o.Client.CloseIdleConnections()
	defer r.wg.Wait()
	defer cancel()
	sc := bufio.NewScanner(in)
	sc.Buffer(make([]byte, 0, 64<<10), maxRelayLine)
	for sc.Scan() {
		line := bytes.TrimSpace(sc.Bytes())
		if len(line) == 0 {
			continue
		}
		r.forward(ctx, append([]byte(nil), line...))
	}
	if err := sc.Err(); err != nil {
		return fmt.Errorf("reading from the agent: %w", err)
	}
	return nil
}

// relay is one stdio client's link to the console.
type relay struct {
	o  RelayOptions
	wg sync.WaitGroup

	outMu sync.Mutex
	out   io.Writer

	mu       sync.Mutex
	session  string // Mcp-Session-Id of a 2025-11-25 (or older) session
	version  string // the protocol version that session negotiated
	inflight map[string]context.CancelFunc
	listen   sync.Once // opens the stream of notifications outside requests
}

// message is what the relay reads of a JSON-RPC message.
type message struct {
	ID     json.RawMessage `json:"id"`
	Method string          `json:"method"`
	Params struct {
		Name      string          `json:"name"`
		RequestID json.RawMessage `json:"requestId"`
		Meta      *mcp.Meta       `json:"_meta"`
	} `json:"params"`
}

// forward sends one message from the agent to the console.
func (r *relay) forward(ctx context.Context, line []byte) {
	var m message
	if err := json.Unmarshal(line, &m); err != nil {
		r.write(jsonRPCError(nil, mcp.PARSE_ERROR, "not a JSON-RPC message: "+err.Error()))
		return
	}
	if m.Method == string(mcp.MethodNotificationCancelled) {
		// Over HTTP a request is cancelled by dropping its POST, which
		// ends the call's context in the console: the waiting call is
		// withdrawn, a running one killed. The notification itself has
		// no request to travel on.
		r.mu.Lock()
		if stop := r.inflight[string(m.Params.RequestID)]; stop != nil {
			stop()
		}
		r.mu.Unlock()
		return
	}
	isRequest := len(m.ID) > 0 && m.Method != ""
	if m.Method == string(mcp.MethodInitialize) {
		// The session id comes back with its answer; nothing else may be
		// sent before it, and a well-behaved client sends nothing.
		r.post(ctx, line, m, true)
		r.startListening(ctx, "", nil)
		return
	}
	if v := m.Params.Meta.ProtocolVersion(); mcp.IsModernProtocol(v) {
		r.startListening(ctx, v, line)
	}
	reqCtx, stop := context.WithCancel(ctx)
	if isRequest {
		r.mu.Lock()
		r.inflight[string(m.ID)] = stop
		r.mu.Unlock()
	}
	r.wg.Add(1)
	go func() {
		defer r.wg.Done()
		defer stop()
		r.post(reqCtx, line, m, isRequest)
		if isRequest {
			r.mu.Lock()
			delete(r.inflight, string(m.ID))
			r.mu.Unlock()
		}
	}()
}

// post sends one message and relays what comes back.
func (r *relay) post(ctx context.Context, body []byte, m message, isRequest bool) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, r.o.URL, bytes.NewReader(body))
	if err != nil {
		r.fail(m, isRequest, err.Error())
		return
	}
	r.headers(req, m)
	resp, err := r.o.Client.Do(req)
	if err != nil {
		if ctx.Err() == nil {
			r.fail(m, isRequest, "the console at "+r.o.URL+" is not reachable: "+err.Error()+
				" (is `assent` still running?)")
		}
		return
	}
	defer resp.Body.Close()
	if m.Method == string(mcp.MethodInitialize) && resp.StatusCode == http.StatusOK {
		r.mu.Lock()
		r.session = resp.Header.Get(mcp.HeaderSessionID)
		r.mu.Unlock()
	}
	ct := resp.Header.Get("Content-Type")
	switch {
	case resp.StatusCode == http.StatusAccepted:
	case strings.HasPrefix(ct, "text/event-stream"):
		r.relayEvents(resp.Body, m)
	case strings.HasPrefix(ct, "application/json"):
		data, err := io.ReadAll(resp.Body)
		if err != nil {
			if ctx.Err() == nil {
				r.fail(m, isRequest, "reading the console's answer: "+err.Error())
			}
			return
		}
		r.answer(bytes.TrimSpace(data), m)
	default:
		text, _ := io.ReadAll(io.LimitReader(resp.Body, 512))
		msg := fmt.Sprintf("the console refused the request: %s: %s", resp.Status, strings.TrimSpace(string(text)))
		if resp.StatusCode == http.StatusUnauthorized {
			msg += " (the token does not match the console's: see `assent token`)"
		}
		r.fail(m, isRequest, msg)
	}
}

// listenID is the id of the relay's own subscriptions/listen request; its
// final answer is the relay's, not the agent's.
const listenID = `"assent-relay-listen"`

// startListening opens, once, the stream on which the console sends what
// belongs to no request, such as notifications/tools/list_changed: the
// session's GET stream for a 2025-11-25 client, a subscriptions/listen
// request for a 2026-07-28 one (version is then its version, and first
// the request whose client metadata the relay's own request repeats).
func (r *relay) startListening(ctx context.Context, version string, first []byte) {
	r.listen.Do(func() {
		r.wg.Add(1)
		go func() {
			defer r.wg.Done()
			if err := r.listenStream(ctx, version, first); err != nil && ctx.Err() == nil {
				r.o.Logger.Info("relay: no stream of notifications from the console", "err", err)
			}
		}()
	})
}

func (r *relay) listenStream(ctx context.Context, version string, first []byte) error {
	var req *http.Request
	var err error
	m := message{}
	if version == "" {
		r.mu.Lock()
		session := r.session
		r.mu.Unlock()
		if session == "" {
			return errors.New("the console gave no session")
		}
		if req, err = http.NewRequestWithContext(ctx, http.MethodGet, r.o.URL, nil); err != nil {
			return err
		}
	} else {
		// The agent's own request carries its client info and
		// capabilities, which a 2026-07-28 request must state.
		var agent struct {
			Params struct {
				Meta map[string]any `json:"_meta"`
			} `json:"params"`
		}
		if err := json.Unmarshal(first, &agent); err != nil {
			return err
		}
		meta := agent.Params.Meta
		delete(meta, "progressToken")
		listen, err := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": json.RawMessage(listenID),
			"method": mcp.MethodSubscriptionsListen, "params": map[string]any{
				"notifications": mcp.SubscriptionFilter{ToolsListChanged: true}, "_meta": meta}})
		if err != nil {
			return err
		}
		body := string(listen)
		if req, err = http.NewRequestWithContext(ctx, http.MethodPost, r.o.URL, strings.NewReader(body)); err != nil {
			return err
		}
		m.Method = string(mcp.MethodSubscriptionsListen)
		m.Params.Meta = &mcp.Meta{AdditionalFields: map[string]any{mcp.MetaKeyProtocolVersion: version}}
	}
	r.headers(req, m)
	req.Header.Set("Accept", "text/event-stream")
	resp, err := r.o.Client.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/event-stream") {
		text, _ := io.ReadAll(io.LimitReader(resp.Body, 512))
		return fmt.Errorf("the console answered %s: %s", resp.Status, bytes.TrimSpace(text))
	}
	r.relayEvents(resp.Body, message{Method: m.Method})
	return nil
}

// headers sets what the console's transport expects on a POST.
func (r *relay) headers(req *http.Request, m message) {
	h := req.Header
	h.Set("Content-Type", "application/json")
	h.Set("Accept", "application/json, text/event-stream")
	h.Set("Authorization", "Bearer "+r.o.Token)
	r.mu.Lock()
	session, version := r.session, r.version
	r.mu.Unlock()
	// A 2026-07-28 request states its version in _meta, and the header
	// must agree; an older session states the one it negotiated.
	if v := m.Params.Meta.ProtocolVersion(); v != "" {
		version = v
	}
	if version != "" {
		h.Set(mcp.HeaderProtocolVersion, version)
	}
	if session != "" {
		h.Set(mcp.HeaderSessionID, session)
	}
	if m.Method != "" {
		h.Set(mcp.HeaderMethod, m.Method)
	}
	if m.Params.Name != "" {
		h.Set(mcp.HeaderName, m.Params.Name)
	}
}

// answer writes one message from the console and learns from an
// initialize answer which version the session speaks. On the relay's own
// listening stream only notifications are the agent's.
func (r *relay) answer(data []byte, m message) {
	if len(data) == 0 {
		return
	}
	if m.Method == string(mcp.MethodSubscriptionsListen) && m.ID == nil {
		var got message
		if json.Unmarshal(data, &got) != nil || got.Method == "" || strings.HasPrefix(got.Method, "notifications/subscriptions/") {
			return
		}
	}
	if m.Method == string(mcp.MethodInitialize) {
		var res struct {
			Result struct {
				ProtocolVersion string `json:"protocolVersion"`
			} `json:"result"`
		}
		if json.Unmarshal(data, &res) == nil && res.Result.ProtocolVersion != "" {
			r.mu.Lock()
			r.version = res.Result.ProtocolVersion
			r.mu.Unlock()
		}
	}
	r.write(data)
}

// relayEvents writes the data of each server-sent event as a message.
func (r *relay) relayEvents(body io.Reader, m message) {
	sc := bufio.NewScanner(body)
	sc.Buffer(make([]byte, 0, 64<<10), maxRelayLine)
	var data bytes.Buffer
	for sc.Scan() {
		line := sc.Bytes()
		switch {
		case len(line) == 0:
			r.answer(bytes.TrimSpace(data.Bytes()), m)
			data.Reset()
		case bytes.HasPrefix(line, []byte("data:")):
			if data.Len() > 0 {
				data.WriteByte('\n')
			}
			data.Write(bytes.TrimPrefix(bytes.TrimPrefix(line, []byte("data:")), []byte(" ")))
		}
	}
	r.answer(bytes.TrimSpace(data.Bytes()), m)
}

// fail answers a request the console could not, so the agent is never
// left waiting; a failed notification is only logged.
func (r *relay) fail(m message, isRequest bool, text string) {
	r.o.Logger.Warn("relay", "method", m.Method, "err", text)
	if isRequest {
		r.write(jsonRPCError(m.ID, mcp.INTERNAL_ERROR, text))
	}
}

// write sends one message to the agent, a line at a time.
func (r *relay) write(msg []byte) {
	r.outMu.Lock()
	defer r.outMu.Unlock()
	if _, err := r.out.Write(append(msg, '\n')); err != nil {
		r.o.Logger.Warn("relay: writing to the agent", "err", err)
	}
}

func jsonRPCError(id json.RawMessage, code int, text string) []byte {
	if len(id) == 0 {
		id = json.RawMessage("null")
	}
	b, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": id,
		"error": map[string]any{"code": code, "message": text}})
	return b
}
