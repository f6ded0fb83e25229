package server

import (
	"encoding/json"
	"strconv"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/assent-sh/assent/jsonenc"
)

// encodeResult writes res as json.Marshal writes it through mcp-go's
// CallToolResult.MarshalJSON: the keys of its map in sorted order, every
// string HTML-escaped. It writes by hand the results this package makes
// (text content, and a callResult as structured content) and hands any
// other to json.Marshal. TestEncodeResult_AsJSONMarshal and
// FuzzEncodeResult hold the two to the same bytes.
func encodeResult(res *mcp.CallToolResult) ([]byte, error) {
	if !handEncodable(res) {
		return json.Marshal(res)
	}
	b := make([]byte, 0, 256)
	b = append(b, `{"content":[`...)
	for i, c := range res.Content {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, `{"type":`...)
		b = jsonenc.String(b, c.(mcp.TextContent).Type, true)
		b = append(b, `,"text":`...)
		b = jsonenc.String(b, c.(mcp.TextContent).Text, true)
		b = append(b, '}')
	}
	b = append(b, ']')
	if res.IsError {
		b = append(b, `,"isError":true`...)
	}
	if sc, ok := res.StructuredContent.(callResult); ok {
		b = append(b, `,"structuredContent":`...)
		b = sc.appendJSON(b)
	}
	return append(b, '}'), nil
}

// handEncodable reports whether encodeResult knows every part of res.
func handEncodable(res *mcp.CallToolResult) bool {
	if res == nil || res.Meta != nil || res.ResultType != "" || len(res.RawStructuredContent) > 0 ||
		len(res.InputRequests) > 0 || res.RequestState != "" {
		return false
	}
	if _, ok := res.StructuredContent.(callResult); !ok && res.StructuredContent != nil {
		return false
	}
	for _, c := range res.Content {
		if t, ok := c.(mcp.TextContent); !ok || t.Annotations != nil || t.Meta != nil {
			return false
		}
	}
	return true
}

// appendJSON writes r as json.Marshal does.
func (r callResult) appendJSON(b []byte) []byte {
	b = append(b, `{"stdout":`...)
	b = jsonenc.String(b, r.Stdout, true)
	b = append(b, `,"stderr":`...)
	b = jsonenc.String(b, r.Stderr, true)
	b = append(b, `,"exitCode":`...)
	b = strconv.AppendInt(b, int64(r.ExitCode), 10)
	b = append(b, `,"durationMs":`...)
	b = strconv.AppendInt(b, r.DurationMs, 10)
	b = append(b, `,"truncated":`...)
	b = strconv.AppendBool(b, r.Truncated)
	b = append(b, `,"timedOut":`...)
	b = strconv.AppendBool(b, r.TimedOut)
	if r.Signal != "" {
		b = append(b, `,"signal":`...)
		b = jsonenc.String(b, r.Signal, true)
	}
	if r.Edited != nil {
		b = append(b, `,"edited":{"ran":`...)
		b = jsonenc.Strings(b, r.Edited.Ran, true)
		b = append(b, `,"asked":`...)
		b = jsonenc.Strings(b, r.Edited.Asked, true)
		b = append(b, '}')
	}
	return append(b, '}')
}
