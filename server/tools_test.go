package server

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/assent-sh/assent/config"
	"github.com/assent-sh/assent/server/servertest"
)

func TestListTools_SchemasAndAnnotations(t *testing.T) {
	for _, era := range servertest.Eras() {
		t.Run(era.Name, func(t *testing.T) {
			f := newFixture(t, nil)
			c := f.inProcess(era.Options, nil)
			ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
			defer cancel()
			res, err := c.ListTools(ctx, mcp.ListToolsRequest{})
			if err != nil {
				t.Fatal(err)
			}
			tools := map[string]mcp.Tool{}
			for _, tl := range res.Tools {
				tools[tl.Name] = tl
			}
			if len(tools) != 3 {
				t.Fatalf("tools %v", res.Tools)
			}
			look := tools["look"]
			if look.Description != "Look at a what thing" {
				t.Errorf("description %q", look.Description)
			}
			wire, err := json.Marshal(look)
			if err != nil {
				t.Fatal(err)
			}
			var got struct {
				InputSchema  map[string]any `json:"inputSchema"`
				OutputSchema map[string]any `json:"outputSchema"`
			}
			if err := json.Unmarshal(wire, &got); err != nil {
				t.Fatal(err)
			}
			if got.InputSchema["additionalProperties"] != false || got.InputSchema["required"].([]any)[0] != "what_thing" {
				t.Errorf("input schema %v", got.InputSchema)
			}
			if got.OutputSchema["additionalProperties"] != false || len(got.OutputSchema["required"].([]any)) != 6 {
				t.Errorf("output schema %v", got.OutputSchema)
			}
			for name, tl := range tools {
				a := tl.Annotations
				if a.ReadOnlyHint == nil || a.DestructiveHint == nil || a.IdempotentHint == nil || a.OpenWorldHint == nil {
					t.Fatalf("%s: annotation left unset: %+v", name, a)
				}
				ro := f.Config().Tool(name).ReadOnly
				if *a.ReadOnlyHint != ro || *a.DestructiveHint == ro || *a.IdempotentHint != ro || !*a.OpenWorldHint {
					t.Errorf("%s: annotations %v %v %v %v for read_only %v", name,
						*a.ReadOnlyHint, *a.DestructiveHint, *a.IdempotentHint, *a.OpenWorldHint, ro)
				}
			}
		})
	}
}

func TestPlainDescription(t *testing.T) {
	tests := []struct{ in, want string }{
		{"List all files in a {directory}", "List all files in a directory"},
		{"Current time in a given {format}", "Current time in a given format"},
		{"Count {files...} by {line_count}", "Count files by line count"},
		{"find … -exec grep {} ; stays", "find … -exec grep {} ; stays"},
		{`JSON like {"a": 1} stays`, `JSON like {"a": 1} stays`},
	}
	for _, tc := range tests {
		t.Run(tc.in, func(t *testing.T) {
			if got := config.PlainDescription(tc.in); got != tc.want {
				t.Errorf("got %q, want %q", got, tc.want)
			}
		})
	}
}
