package server

import (
	"bytes"
	"encoding/json"
	"errors"

	"github.com/mark3labs/mcp-go/mcp"
)

// kind is what a JSON-RPC message is, decided before mcp-go sees it, so
// that stdio, the local socket and HTTP answer malformed input alike.
type kind int

const (
	kindBlank        kind = iota // an empty line: nothing to answer
	kindRequest                  // method and id: exactly one response
	kindNotification             // method, no id: no response
	kindResponse                 // id and result or error, answering the server
	kindInvalid                  // answered with -32600 (or -32700) and a reason
)

// message is what assent reads of a JSON-RPC message: enough to route it.
type message struct {
	kind   kind
	id     json.RawMessage // a request's or response's id, as sent
	method string
	params json.RawMessage // as sent, not decoded
	// cancels is the requestId of a notifications/cancelled.
	cancels json.RawMessage
	// metaVersion is params._meta's protocol version (2026-07-28 requests).
	metaVersion string
	// code and problem say what is wrong with an invalid message.
	code    int
	problem string
}

// parseMessage reads one message. JSON-RPC batches were removed from MCP
// in 2025-06-18 and mcp-go answers one with "-32700 not valid json", so a
// batch gets its own clear refusal here. A null id, or an id without a
// method, is not a notification: mcp-go's check for "no id" treats both as
// one and answers nothing, leaving the client waiting.
func parseMessage(data []byte) message {
	data = bytes.TrimSpace(data)
	if len(data) == 0 {
		return message{kind: kindBlank}
	}
	var env struct {
		JSONRPC string          `json:"jsonrpc"`
		ID      json.RawMessage `json:"id"`
		Method  *string         `json:"method"`
		Result  json.RawMessage `json:"result"`
		Error   json.RawMessage `json:"error"`
		Params  json.RawMessage `json:"params"`
	}
	// Unmarshal checks the whole text before it decodes, and says so with
	// a SyntaxError: one scan, where json.Valid first would be two.
	var err error
	if data[0] == '{' {
		err = json.Unmarshal(data, &env)
	}
	var syntax *json.SyntaxError
	switch {
	case errors.As(err, &syntax) || data[0] != '{' && !json.Valid(data):
		return invalid(mcp.PARSE_ERROR, "the message is not valid JSON")
	case data[0] == '[':
		return invalid(mcp.INVALID_REQUEST, "JSON-RPC batches are not supported: send each message on its own")
	case data[0] != '{' || err != nil:
		return invalid(mcp.INVALID_REQUEST, "a JSON-RPC message must be an object with \"jsonrpc\": \"2.0\"")
	}
	m := message{id: env.ID, params: env.Params}
	if len(env.ID) > 0 && !validID(env.ID) {
		m.id = nil
		return m.invalid("the id must be a string or a number (a null id is not allowed)")
	}
	if env.JSONRPC != mcp.JSONRPC_VERSION {
		return m.invalid("the jsonrpc member must be 2.0")
	}
	switch {
	case env.Method != nil && *env.Method == "":
		return m.invalid("the method must not be empty")
	case env.Method != nil && len(env.ID) > 0:
		m.kind, m.method = kindRequest, *env.Method
	case env.Method != nil:
		m.kind, m.method = kindNotification, *env.Method
	case len(env.ID) > 0 && (len(env.Result) > 0 || len(env.Error) > 0):
		m.kind = kindResponse
		return m
	default:
		return m.invalid("a message needs a method (a request or a notification), or an id with a result or an error (a response)")
	}
	var params struct {
		RequestID json.RawMessage `json:"requestId"`
		Meta      *mcp.Meta       `json:"_meta"`
	}
	if len(env.Params) > 0 && env.Params[0] == '{' && (m.method == string(mcp.MethodNotificationCancelled) || mayHoldMeta(env.Params)) &&
		json.Unmarshal(env.Params, &params) == nil {
		m.metaVersion = params.Meta.ProtocolVersion()
		if m.method == string(mcp.MethodNotificationCancelled) {
			m.cancels = params.RequestID
		}
	}
	return m
}

// mayHoldMeta reports whether params may have a _meta member as
// encoding/json matches keys: in any letter case, or written with
// escapes. Most calls have none, and are not decoded a second time.
func mayHoldMeta(params json.RawMessage) bool {
	if bytes.IndexByte(params, '\\') >= 0 {
		return true
	}
	for i := 0; i+len("_meta") <= len(params); i++ {
		if params[i] == '_' && bytes.EqualFold(params[i:i+len("_meta")], []byte("_meta")) {
			return true
		}
	}
	return false
}

// validID reports whether a raw id is a string or a number.
func validID(id json.RawMessage) bool {
	switch id[0] {
	case '"', '-', '0', '1', '2', '3', '4', '5', '6', '7', '8', '9':
		return true
	}
	return false
}

func invalid(code int, problem string) message {
	return message{kind: kindInvalid, code: code, problem: problem}
}

func (m message) invalid(problem string) message {
	m.kind, m.code, m.problem = kindInvalid, mcp.INVALID_REQUEST, problem
	return m
}

// errorResponse is the JSON-RPC error answering an invalid message.
func (m message) errorResponse() []byte {
	return jsonRPCError(m.id, m.code, m.problem)
}

// jsonRPCError is a JSON-RPC error response; a missing id is null.
func jsonRPCError(id json.RawMessage, code int, text string) []byte {
	if len(id) == 0 {
		id = json.RawMessage("null")
	}
	b, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": id,
		"error": map[string]any{"code": code, "message": text}})
	return b
}
