package server

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"

	"github.com/mark3labs/mcp-go/mcp"
	mcpserver "github.com/mark3labs/mcp-go/server"
)

// callTool answers a tools/call of the initialize era directly: the
// params decoded once, the tool's handler called as mcp-go would call it,
// the answer encoded once. mcp-go's dispatch decodes a message five times
// and wraps it in contexts assent does not use, which is a tenth of a
// call's cost. It reports false for anything else, and for a call whose
// answer is mcp-go's to give (an unknown tool, params it would refuse),
// which then goes to mcp-go whole, so every answer but the fast one is
// mcp-go's own.
//
// Without progress, a call with a progress token is not answered here
// either: its transport cannot send the notifications.
func (s *Server) callTool(ctx context.Context, m message, progress bool) ([]byte, bool) {
	if m.method != string(mcp.MethodToolsCall) || mcp.IsModernProtocol(m.metaVersion) ||
		len(m.params) == 0 || m.params[0] != '{' {
		return nil, false
	}
	p, ok := decodeCallParams(m.params)
	if !ok {
		return nil, false
	}
	h, ok := s.tools.Load().handlers[p.Name]
	if !ok || !progress && p.Meta != nil && p.Meta.ProgressToken != nil {
		return nil, false
	}
	id, ok := answerID(m.id)
	if !ok {
		return nil, false
	}
	ctx = mcpserver.WithRequestProtocolInfo(ctx, &mcpserver.RequestProtocolInfo{ProtocolVersion: m.metaVersion})
	res, err := h(ctx, mcp.CallToolRequest{Request: mcp.Request{Method: m.method}, Params: p})
	if err != nil {
		return errorResponse(id, err), true
	}
	body, err := encodeResult(res)
	if err != nil {
		return errorResponse(id, fmt.Errorf("encoding the result: %w", err)), true
	}
	return resultResponse(id, body), true
}

// callParams are the members mcp.CallToolParams's UnmarshalJSON reads,
// decoded in one pass: it decodes its params into a struct that holds the
// arguments as raw JSON and then the arguments again, and json.Unmarshal
// checks the whole text before each, three scans and two decodes of every
// call where this is one of each. The task and multi-round-trip members are
// decoded too, and passed on as mcp-go passes them: a call whose members
// mcp-go cannot decode is mcp-go's to refuse.
type callParams struct {
	Name      string          `json:"name"`
	Arguments any             `json:"arguments"`
	Meta      *mcp.Meta       `json:"_meta,omitempty"`
	Task      *mcp.TaskParams `json:"task,omitempty"`
	mcp.MultiRoundTripParams
}

// decodeCallParams decodes a tools/call's params as mcp-go would, without
// RawArguments, which nothing assent calls reads.
func decodeCallParams(params json.RawMessage) (mcp.CallToolParams, bool) {
	var p callParams
	if json.Unmarshal(params, &p) != nil {
		return mcp.CallToolParams{}, false
	}
	return mcp.CallToolParams{Name: p.Name, Arguments: p.Arguments, Meta: p.Meta, Task: p.Task,
		MultiRoundTripParams: p.MultiRoundTripParams}, true
}

// answerID is a request's id as mcp-go writes it back: decoded as an
// mcp.RequestId and encoded again, so that 1.0 comes back as 1, a large
// integer as float64 has it, and a string with escapes as Go escapes it.
// A plain integer that float64 holds exactly is already that.
func answerID(raw json.RawMessage) (json.RawMessage, bool) {
	if len(raw) > 0 && len(raw) <= 15 && raw[0] != '-' && !bytes.ContainsFunc(raw, func(r rune) bool { return r < '0' || r > '9' }) {
		return raw, true
	}
	var id mcp.RequestId
	if json.Unmarshal(raw, &id) != nil || id.IsNil() {
		return nil, false
	}
	b, err := json.Marshal(id)
	return b, err == nil
}

// errorResponse is mcp-go's answer to a request whose handler failed.
func errorResponse(id json.RawMessage, err error) []byte {
	b, _ := json.Marshal(mcp.JSONRPCError{JSONRPC: mcp.JSONRPC_VERSION, ID: mcp.NewRequestId(json.RawMessage(id)),
		Error: mcp.NewJSONRPCErrorDetails(mcp.INTERNAL_ERROR, err.Error(), nil)})
	return b
}

// listTools answers a tools/list of the initialize era, without a cursor,
// with the set's encoded list; it reports false for anything else.
func (s *Server) listTools(m message) ([]byte, bool) {
	if m.method != string(mcp.MethodToolsList) || mcp.IsModernProtocol(m.metaVersion) || hasCursor(m.params) {
		return nil, false
	}
	list := s.tools.Load().list()
	id, ok := answerID(m.id)
	if list == nil || !ok {
		return nil, false
	}
	return resultResponse(id, list), true
}

// hasCursor reports whether params are anything but absent, null, or an
// object without a cursor.
func hasCursor(params json.RawMessage) bool {
	var p struct {
		Cursor *string `json:"cursor"`
	}
	return len(params) > 0 && string(params) != "null" && (json.Unmarshal(params, &p) != nil || p.Cursor != nil)
}

// encodeList is the tools/list result for tools, byte for byte as mcp-go
// answers it: written by hand (see encodeTools) when it knows every field
// the tools set, else asked of mcp-go once taken is closed (mcp-go has
// them); nil if mcp-go gave none.
func (s *Server) encodeList(tools []mcpserver.ServerTool, taken <-chan struct{}) json.RawMessage {
	if b, ok := encodeTools(tools); ok {
		return b
	}
	<-taken
	resp, ok := s.mcp.HandleMessage(context.Background(), []byte(`{"jsonrpc":"2.0","id":0,"method":"tools/list"}`)).(mcp.JSONRPCResponse)
	if !ok {
		return nil
	}
	b, err := json.Marshal(resp.Result)
	if err != nil {
		return nil
	}
	return b
}

// resultResponse is a JSON-RPC response with the id as sent, in one
// allocation with room for the newline a line transport appends: a
// tools/list answer runs to hundreds of kilobytes (330 KB for 200 tools),
// and each copy of it in fresh memory costs its page faults.
func resultResponse(id json.RawMessage, result []byte) []byte {
	const head, mid = `{"jsonrpc":"2.0","id":`, `,"result":`
	out := make([]byte, 0, len(head)+len(id)+len(mid)+len(result)+len("}\n"))
	out = append(out, head...)
	out = append(out, id...)
	out = append(out, mid...)
	out = append(out, result...)
	return append(out, '}')
}

// recovered turns a handler's panic into the error mcp-go's recovery gave:
// a JSON-RPC internal error that names the tool, and a server that goes on.
func recovered(name string, h mcpserver.ToolHandlerFunc) mcpserver.ToolHandlerFunc {
	return func(ctx context.Context, req mcp.CallToolRequest) (res *mcp.CallToolResult, err error) {
		defer func() {
			if r := recover(); r != nil {
				res, err = nil, fmt.Errorf("panic recovered in %s tool handler: %v", name, r)
			}
		}()
		return h(ctx, req)
	}
}
