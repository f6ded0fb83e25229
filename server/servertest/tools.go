package servertest

import (
	"fmt"
	"strings"
)

// ManyTools is a tool file of n read-only tools, each with a template of
// four words and three typed parameters (one a path, one with a pattern):
// what the benchmarks of a start load, in `go test -bench` and the load
// driver alike.
func ManyTools(n int) string {
	var b strings.Builder
	b.WriteString(`{"tools": [`)
	for i := range n {
		if i > 0 {
			b.WriteString(",\n")
		}
		fmt.Fprintf(&b, `{"name": "tool_%d", "description": "Tool %d searches a {path} for a {pattern}", "read_only": true,
 "command": "grep -n -m {max} -e {pattern} -- {path}",
 "params": {"pattern": {"max_length": 1000, "pattern": "[A-Za-z0-9_ ]+"}, "path": {"type": "path", "default": "."},
            "max": {"type": "integer", "min": 1, "max": 1000, "default": 100}}}`, i, i)
	}
	b.WriteString("]}")
	return b.String()
}
