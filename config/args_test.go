package config

import (
	"reflect"
	"strings"
	"testing"
)

func TestArgsFromStrings_TypesAsTheToolExpects(t *testing.T) {
	tool := oneTool(t, testOptions(t), `{"name": "t", "command": "uname {n} {x} {b} {s} {files...}",
	  "params": {"n": {"type": "integer"}, "x": {"type": "number"}, "b": {"type": "boolean"},
	             "files": {"type": "path", "required": false}}}`)
	tests := []struct {
		name string
		kvs  []string
		want map[string]any
		err  string
	}{
		{"typed", []string{"n=3", "x=2.5", "b=true", "s=a=b"},
			map[string]any{"n": 3.0, "x": 2.5, "b": true, "s": "a=b"}, ""},
		{"list", []string{"files=a", "files=b"}, map[string]any{"files": []any{"a", "b"}}, ""},
		{"one item is still a list", []string{"files=a"}, map[string]any{"files": []any{"a"}}, ""},
		{"repeated scalar", []string{"s=a", "s=b", "s=c"}, map[string]any{"s": []any{"a", "b", "c"}}, ""},
		{"unknown key kept as text", []string{"zzz=1"}, map[string]any{"zzz": "1"}, ""},
		{"empty value", []string{"s="}, map[string]any{"s": ""}, ""},
		{"no equals", []string{"pattern"}, nil, `argument "pattern" is not key=value`},
		{"no key", []string{"=x"}, nil, `argument "=x" is not key=value`},
		{"bad number", []string{"n=three"}, nil, `argument n: "three" is not a number`},
		{"bad boolean", []string{"b=maybe"}, nil, `argument b: "maybe" is not true or false`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := tool.ArgsFromStrings(tt.kvs)
			if tt.err != "" {
				if err == nil || !strings.Contains(err.Error(), tt.err) {
					t.Fatalf("err = %v, want %q", err, tt.err)
				}
				return
			}
			if err != nil || !reflect.DeepEqual(got, tt.want) {
				t.Fatalf("ArgsFromStrings(%q) = %#v, %v; want %#v", tt.kvs, got, err, tt.want)
			}
		})
	}
}
