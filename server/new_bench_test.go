package server

import (
	"fmt"
	"strings"
	"testing"

	"github.com/assent-sh/assent/queue/queuetest"
)

// BenchmarkNew200 builds a server offering 200 tools and answers
// tools/list once, as a start does before the first answer.
func BenchmarkNew200(b *testing.B) {
	var t strings.Builder
	t.WriteString(`{"tools": [`)
	for i := range 200 {
		if i > 0 {
			t.WriteString(",")
		}
		fmt.Fprintf(&t, `{"name": "tool_%d", "description": "Tool %d searches a {path} for a {pattern}", "read_only": true,
 "command": "grep -n -m {max} -e {pattern} -- {path}",
 "params": {"pattern": {"max_length": 1000}, "path": {"type": "path", "default": "."},
            "max": {"type": "integer", "min": 1, "max": 1000, "default": 100}}}`, i, i)
	}
	t.WriteString("]}")
	f := queuetest.New(b, queuetest.Options{Tools: t.String()})
	list := []byte(`{"jsonrpc":"2.0","id":1,"method":"tools/list"}`)
	for b.Loop() {
		s, err := New(f.Config(), Options{Queue: f.Queue})
		if err != nil {
			b.Fatal(err)
		}
		if resp := s.MCP().HandleMessage(b.Context(), list); resp == nil {
			b.Fatal("no answer")
		}
	}
}
