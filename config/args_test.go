package config

import (
	"encoding/json"
	"errors"
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

// TestInteger_RefusesWhatDecodingMayHaveRounded shows that a whole number
// float64 may not hold exactly is refused, not run as its neighbour:
// JSON's 9007199254740993 decodes as 9007199254740992.
func TestInteger_RefusesWhatDecodingMayHaveRounded(t *testing.T) {
	tool := oneTool(t, testOptions(t), `{"name": "t", "command": "uname {n}",
	  "params": {"n": {"type": "integer", "min": -1e300}}}`)
	typed, err := tool.ArgsFromStrings([]string{"n=9007199254740993"})
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		n    any
		want string // the argv's last word, or "" for a refusal
	}{
		{"typed on the command line", typed["n"], ""},
		{"2^53", float64(1 << 53), ""},
		{"-2^53", -float64(1 << 53), ""},
		{"2^53 + 2", float64(1<<53 + 2), ""},
		{"2^53 - 1", float64(1<<53 - 1), "9007199254740991"},
		{"-(2^53 - 1)", -float64(1<<53 - 1), "-9007199254740991"},
		{"exact as a JSON number", json.Number("9007199254740993"), "9007199254740993"},
		{"rounded from a JSON number in exponent form", json.Number("9.007199254740993e15"), ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cmd, err := tool.Expand(map[string]any{"n": tt.n})
			if tt.want != "" {
				if err != nil || cmd.Argv[len(cmd.Argv)-1] != tt.want {
					t.Fatalf("Expand(%v) = %q, %v; want last word %q", tt.n, cmd.Argv, err, tt.want)
				}
				return
			}
			var ae *ArgError
			if !errors.As(err, &ae) || ae.Rule != "type" || !strings.Contains(ae.Msg, "magnitude below 2^53") {
				t.Fatalf("Expand(%v) = %q, %v; want a refusal of the rounded number", tt.n, cmd.Argv, err)
			}
		})
	}
}
