package server

import (
	"slices"
	"strconv"
	"strings"

	"github.com/mark3labs/mcp-go/mcp"
	mcpserver "github.com/mark3labs/mcp-go/server"

	"github.com/assent-sh/assent/jsonenc"
)

// encodeTools writes the tools/list result for tools as json.Marshal
// writes mcp-go's: {"tools":[...]} in the order of the names, each tool
// through Tool.MarshalJSON (a map, so its keys sorted) with the raw schemas
// as they are: mcpTool's come from json.Marshal, and outputSchema is
// compact, so json.Marshal would copy them unchanged. It reports false for
// a tool with a field it does not write (title, icons, _meta, execution,
// deferred loading, a structured schema, no output schema, a structured
// schema beside a raw one, which mcp-go refuses) or two tools of one name,
// which mcp-go would answer differently. TestListTools_AnswersAsMCPGo and
// TestEncodeTools_AsMCPGoOrNotAtAll hold the two to the same bytes.
func encodeTools(tools []mcpserver.ServerTool) ([]byte, bool) {
	order := make([]int, len(tools))
	size := 16
	for i, st := range tools {
		t := &st.Tool
		if t.Title != "" || t.Icons != nil || t.Meta != nil || t.Execution != nil || t.DeferLoading ||
			len(t.RawInputSchema) == 0 || len(t.RawOutputSchema) == 0 ||
			t.InputSchema.Type != "" || t.OutputSchema.Type != "" {
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
