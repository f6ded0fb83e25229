package config

import "testing"

// BenchmarkExpand expands a typical read-only tool call: a string, a path
// resolved against its root, and an integer.
func BenchmarkExpand(b *testing.B) {
	opts := testOptions(b)
	c, err := Load(opts, Source{Name: "bench.json", Data: []byte(`[{"name": "grep_search",
	  "command": "grep -rnI --color=never -m {max} -e {pattern} -- {path}",
	  "params": {"pattern": {"max_length": 1000}, "path": {"type": "path", "default": "."},
	             "max": {"type": "integer", "min": 1, "max": 1000, "default": 100}}}]`)})
	if err != nil {
		b.Fatal(err)
	}
	tool := c.Tool("grep_search")
	args := map[string]any{"pattern": "func .*Expand", "path": ".", "max": 50.0}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := tool.Expand(args); err != nil {
			b.Fatal(err)
		}
	}
}
