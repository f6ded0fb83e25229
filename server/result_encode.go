package server

import (
	"encoding/json"
	"slices"
	"strconv"
	"strings"

	"github.com/mark3labs/mcp-go/mcp"
	mcpserver "github.com/mark3labs/mcp-go/server"

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
	if res.Meta != nil || res.ResultType != "" || len(res.RawStructuredContent) > 0 ||
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

// encodeTools writes the tools/list result for tools as json.Marshal
// writes mcp-go's: {"tools":[...]} in the order of the names, each tool
// through Tool.MarshalJSON (a map, so its keys sorted) with the raw schemas
// as they are: mcpTool's come from json.Marshal, and outputSchema is
// compact, so json.Marshal would copy them unchanged. It reports false for
// a tool with a field it does not write (title, icons, _meta, execution,
// deferred loading, a structured schema) or two tools of one name, which
// mcp-go would answer differently. TestListTools_AnswersAsMCPGo and
// TestEncodeTools_AsMCPGoOrNotAtAll hold the two to the same bytes.
func encodeTools(tools []mcpserver.ServerTool) ([]byte, bool) {
	order := make([]int, len(tools))
	size := 16
	for i, st := range tools {
		t := &st.Tool
		if t.Title != "" || t.Icons != nil || t.Meta != nil || t.Execution != nil || t.DeferLoading ||
			t.RawInputSchema == nil || t.RawOutputSchema == nil {
			return nil, false
		}
		order[i] = i
		size += len(t.Name) + len(t.Description) + len(t.RawInputSchema) + len(t.RawOutputSchema) + 200
	}
	slices.SortFunc(order, func(a, b int) int { return strings.Compare(tools[a].Tool.Name, tools[b].Tool.Name) })
	b := make([]byte, 0, size)
	b = append(b, `{"tools":[`...)
	for n, i := range order {
		t := &tools[i].Tool
		if n > 0 {
			if tools[order[n-1]].Tool.Name == t.Name {
				return nil, false
			}
			b = append(b, ',')
		}
		b = appendAnnotations(append(b, `{"annotations":`...), t.Annotations)
		if t.Description != "" {
			b = jsonenc.String(append(b, `,"description":`...), t.Description, true)
		}
		b = append(append(b, `,"inputSchema":`...), t.RawInputSchema...)
		b = jsonenc.String(append(b, `,"name":`...), t.Name, true)
		b = append(append(b, `,"outputSchema":`...), t.RawOutputSchema...)
		b = append(b, '}')
	}
	return append(b, "]}"...), true
}

// appendAnnotations writes a as json.Marshal does: each field omitted when
// empty, in the struct's order.
func appendAnnotations(b []byte, a mcp.ToolAnnotation) []byte {
	b = append(b, '{')
	comma := false
	key := func(k string) {
		if comma {
			b = append(b, ',')
		}
		comma = true
		b = append(append(append(b, '"'), k...), '"', ':')
	}
	if a.Title != "" {
		key("title")
		b = jsonenc.String(b, a.Title, true)
	}
	for _, h := range []struct {
		name string
		v    *bool
	}{{"readOnlyHint", a.ReadOnlyHint}, {"destructiveHint", a.DestructiveHint}, {"idempotentHint", a.IdempotentHint}, {"openWorldHint", a.OpenWorldHint}} {
		if h.v != nil {
			key(h.name)
			b = strconv.AppendBool(b, *h.v)
		}
	}
	return append(b, '}')
}
