package config

import (
	"fmt"
	"strings"
	"testing"
)

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

// manyTools is a tool file of n tools shaped like the default pack's: a
// program, a path parameter with a root, a bounded string and an integer.
func manyTools(n int) []byte {
	var b strings.Builder
	b.WriteString(`{"tools": [`)
	progs := []string{"grep", "cat", "ls", "head", "tail", "wc", "date", "uname", "find", "sort"}
	for i := range n {
		if i > 0 {
			b.WriteString(",\n")
		}
		fmt.Fprintf(&b, `{"name": "tool_%d", "description": "Tool %d searches a {path} for a {pattern}", "read_only": true,
		  "command": "%s -n {max} -e {pattern} -- {path}",
		  "params": {"pattern": {"max_length": 1000, "pattern": "[a-z]+"}, "path": {"type": "path", "default": "."},
		             "max": {"type": "integer", "min": 1, "max": 1000, "default": 100}}}`, i, i, progs[i%len(progs)])
	}
	b.WriteString("]}")
	return []byte(b.String())
}

// BenchmarkLoad200 loads a file of 200 tools, as a start does (issue
// target: startup to the first tools/list answer within 10 ms).
func BenchmarkLoad200(b *testing.B) {
	opts := testOptions(b)
	data := manyTools(200)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Load(opts, Source{Name: "many.json", Data: data}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkLoadMarkdown200 loads a Markdown file of 200 tools, each with
// fields whose values are JSON, read one small document at a time.
func BenchmarkLoadMarkdown200(b *testing.B) {
	opts := testOptions(b)
	var md strings.Builder
	for i := range 200 {
		fmt.Fprintf(&md, "## tool_%d\n\nSearch a {path}.\n\n```\ngrep -n -e {pattern} -- {path}\n```\n\n"+
			"- read_only: true\n- timeout: 5000\n- params: {\"path\": {\"type\": \"path\", \"default\": \".\"}}\n\n", i)
	}
	data := []byte(md.String())
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Load(opts, Source{Name: "many.md", Data: data}); err != nil {
			b.Fatal(err)
		}
	}
}
