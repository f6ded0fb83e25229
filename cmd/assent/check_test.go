package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// run executes the command line in-process and returns stdout and the error.
func run(t *testing.T, args ...string) (string, error) {
	t.Helper()
	root := newRootCmd()
	var out bytes.Buffer
	root.SetOut(&out)
	root.SetErr(&out)
	root.SetArgs(args)
	err := root.Execute()
	return out.String(), err
}

func TestCheck_DefaultPack(t *testing.T) {
	inTempState(t)
	out, err := run(t, "check")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"9 tools from (embedded) examples/default.json", "grep_search  [read-only]",
		"run:     /usr/bin/grep -rnI --color=never --exclude=.env", "-e {pattern} -- {path}",
		`{pattern}  string, required, pattern ([^\\]|\\[^1-9{])*, max 1000 chars`,
		`"additionalProperties":false`, "\nsandbox best-effort: ", "writes:  nothing", "net:     no network"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
}

func TestCheck_JSON(t *testing.T) {
	inTempState(t)
	out, err := run(t, "check", "--json", "../../examples/TOOLS.json")
	if err != nil {
		t.Fatal(err)
	}
	var got struct {
		Support map[string]any `json:"sandbox_support"`
		Tools   []struct {
			Name     string         `json:"name"`
			Program  string         `json:"program"`
			Template []string       `json:"template"`
			Schema   map[string]any `json:"input_schema"`
		} `json:"tools"`
	}
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, out)
	}
	// The machine's sandbox, which the text output's second line says.
	if got.Support["mode"] != "best-effort" || got.Support["containment"] == "" {
		t.Errorf("sandbox_support %v, want this machine's, in the default mode", got.Support)
	}
	if len(got.Tools) != 3 || got.Tools[2].Name != "date_now" || strings.Join(got.Tools[2].Template, " ") != "date +{format}" {
		t.Fatalf("tools %+v", got.Tools)
	}
	if req := got.Tools[2].Schema["required"].([]any); len(req) != 1 || req[0] != "format" {
		t.Fatalf("schema %v", got.Tools[2].Schema)
	}
}

func TestCheck_BadFileFails(t *testing.T) {
	inTempState(t)
	f := filepath.Join(t.TempDir(), "bad.json")
	if err := os.WriteFile(f, []byte(`[{"name": "x", "command": "ls | sh"}]`), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := run(t, "check", f)
	if err == nil || exitCode(err) != 1 || !strings.Contains(err.Error(), `bad.json:1:31: tool "x": command: pipe`) {
		t.Fatalf("err = %v", err)
	}
	_, err = run(t, "check", filepath.Join(t.TempDir(), "missing.json"))
	if err == nil || !strings.Contains(err.Error(), "no such file") {
		t.Fatalf("missing file: err = %v", err)
	}
}

// check's run: line shows each template word as one word, and numbers as
// written (not 1e+06).
func TestCheck_RunLineAndNumbers(t *testing.T) {
	inTempState(t)
	tools := filepath.Join(t.TempDir(), "t.json")
	if err := os.WriteFile(tools, []byte(`[{"name": "two", "command": ["ls", "{a} {b}"]},
	  {"name": "big", "command": "head -n {n}", "params": {"n": {"type": "integer", "min": 1, "max": 1000000}}}]`), 0o644); err != nil {
		t.Fatal(err)
	}
	out, err := run(t, "check", tools)
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	for _, want := range []string{"run:     /usr/bin/ls '{a} {b}'", "max 1000000", "2 tools from"} {
		if !strings.Contains(out, want) {
			t.Errorf("check lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "1e+06") {
		t.Errorf("check prints a number in exponent form:\n%s", out)
	}
}

// check names what leaves a tool unconfined: its own "sandbox": false, or
// settings.sandbox "off" for every tool.
func TestCheck_SaysWhyAToolIsUnconfined(t *testing.T) {
	inTempState(t)
	dir := t.TempDir()
	tests := []struct {
		name, file, want string
	}{
		{"settings off", `{"tools": [{"name": "d", "description": "d", "command": "date", "read_only": true}],
		  "settings": {"sandbox": "off"}}`, "sandbox: none (settings.sandbox: off): its calls run unconfined"},
		{"tool off", `{"tools": [{"name": "d", "description": "d", "command": "date", "read_only": true, "sandbox": false}]}`,
			"sandbox: none (sandbox: false): its calls run unconfined"},
	}
	for i, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := filepath.Join(dir, fmt.Sprintf("t%d.json", i))
			if err := os.WriteFile(f, []byte(tt.file), 0o644); err != nil {
				t.Fatal(err)
			}
			out, err := run(t, "check", f)
			if err != nil {
				t.Fatalf("%v\n%s", err, out)
			}
			if !strings.Contains(out, tt.want) {
				t.Errorf("check lacks %q:\n%s", tt.want, out)
			}
		})
	}
}
