package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// inTempState points assent's state directory at a fresh directory.
func inTempState(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	t.Setenv("XDG_STATE_HOME", dir)
	t.Setenv("XDG_CONFIG_HOME", filepath.Join(dir, "config"))
	return dir
}

func TestExplain_Decisions(t *testing.T) {
	inTempState(t)
	dir := t.TempDir()
	tools := filepath.Join(dir, "tools.json")
	if err := os.WriteFile(tools, []byte(`{"tools": [
	  {"name": "look", "command": "uname {what}", "read_only": true},
	  {"name": "touch_it", "command": "touch -- {file}", "params": {"file": {"type": "path", "under": ["/"]}}},
	  {"name": "burn", "command": "uname --burn {x}"}],
	 "rules": [{"id": "read-only", "decision": "allow", "read_only": true, "reason": "read-only tool"},
	           {"id": "no-burn", "decision": "deny", "tool": "burn", "reason": "never burn"},
	           {"id": "ci-only", "decision": "deny", "client": "ci-bot", "reason": "CI may not touch"}]}`), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		args []string
		code int
		want []string
	}{
		{"allow", []string{"look", "what=x"}, explainAllow, []string{"/usr/bin/uname\n  x\n", "decision: allow by rule read-only: read-only tool"}},
		{"ask", []string{"touch_it", "file=/tmp/a b"}, explainAsk, []string{"  --\n  '/tmp/a b'\n", "decision: ask: no rule matched"}},
		{"deny", []string{"burn", "x=y"}, explainDeny, []string{"decision: deny by rule no-burn: never burn"}},
		{"client", []string{"look", "what=x", "--client", "ci-bot"}, explainDeny, []string{"deny by rule ci-only"}},
		{"headless", []string{"touch_it", "file=/tmp/a", "--headless"}, explainDeny, []string{"no approver is attached (headless)"}},
		{"refused", []string{"look", "what=--help"}, explainRefused, []string{`refused: tool "look": parameter "what" starts with '-'`}},
		{"escaped", []string{"look", "what=a\x1bb"}, explainRefused, []string{`escape character (U+001B)`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out, err := run(t, append([]string{"explain", "--tools", tools}, tt.args...)...)
			if code := exitCodeOrZero(err); code != tt.code {
				t.Fatalf("exit %d (%v), want %d\n%s", code, err, tt.code, out)
			}
			for _, w := range tt.want {
				if !strings.Contains(out, w) {
					t.Errorf("output lacks %q:\n%s", w, out)
				}
			}
			if strings.ContainsRune(out, 0x1b) {
				t.Errorf("raw escape in output %q", out)
			}
		})
	}
}

func exitCodeOrZero(err error) int {
	if err == nil {
		return 0
	}
	return exitCode(err)
}

func TestExplain_JSONAndTypes(t *testing.T) {
	inTempState(t)
	out, err := run(t, "explain", "head_file", "path=.", "lines=5", "--json")
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	var ex explanation
	if err := json.Unmarshal([]byte(out), &ex); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if ex.Action != "allow" || ex.Rule != "default:read-only" || len(ex.Argv) != 5 || ex.Argv[2] != "5" {
		t.Fatalf("explanation %+v", ex)
	}
	if _, err := run(t, "explain", "head_file", "lines=five"); err == nil || !strings.Contains(err.Error(), `"five" is not a number`) {
		t.Fatalf("bad number: %v", err)
	}
	if _, err := run(t, "explain", "nope"); err == nil || !strings.Contains(err.Error(), `no tool "nope"`) {
		t.Fatalf("unknown tool: %v", err)
	}
	out, err = run(t, "explain", "word_count", "files=a", "files=b", "--json")
	if code := exitCodeOrZero(err); code != explainAllow {
		t.Fatalf("list: exit %d %v\n%s", code, err, out)
	}
	if err := json.Unmarshal([]byte(out), &ex); err != nil || len(ex.Argv) != 4 {
		t.Fatalf("list argv %q (%v)", ex.Argv, err)
	}
}

func TestCheck_ListsRulesAndExamples(t *testing.T) {
	inTempState(t)
	pol := filepath.Join(t.TempDir(), "policy.json")
	if err := os.WriteFile(pol, []byte(`{"rules": [{"id": "no-env", "decision": "deny", "args": {"path": "*.env"},
	  "examples": {"match": ["read_file path=/x/a.env"], "not_match": ["read_file path=/x/a.txt"]}}]}`), 0o644); err != nil {
		t.Fatal(err)
	}
	out, err := run(t, "check", "--policy", pol)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"4 rules", "allow default:read-only", "deny  no-env", `example "read_file path=/x/a.env" matches: ok`, "0 remembered rules"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	if err := os.WriteFile(pol, []byte(`[{"id": "wrong", "decision": "deny", "tool": "rm",
	  "examples": {"match": ["ls"]}}]`), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := run(t, "check", "--policy", pol); err == nil || !strings.Contains(err.Error(), "does not match the rule") {
		t.Fatalf("failing example: %v", err)
	}
}

// The default policy applies to any tool set: a read-only tool of the
// operator's own file is allowed by default:read-only, headless too, and
// settings.default_policy: false turns that off.
func TestExplain_DefaultPolicyForAnyToolFile(t *testing.T) {
	inTempState(t)
	dir := t.TempDir()
	ro := filepath.Join(dir, "ro.json")
	if err := os.WriteFile(ro, []byte(`[{"name": "look", "command": "uname -a", "read_only": true}]`), 0o644); err != nil {
		t.Fatal(err)
	}
	out, err := run(t, "explain", "--headless", "--tools", ro, "look")
	if err != nil || !strings.Contains(out, "decision: allow by rule default:read-only") {
		t.Fatalf("%v\n%s", err, out)
	}
	off := filepath.Join(dir, "off.json")
	if err := os.WriteFile(off, []byte(`{"tools": [{"name": "look", "command": "uname -a", "read_only": true}],
	  "settings": {"default_policy": false}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	out, err = run(t, "explain", "--headless", "--tools", off, "look")
	if code := exitCodeOrZero(err); code != explainDeny || !strings.Contains(out, "no approver is attached (headless): no rule matched") {
		t.Fatalf("exit %d\n%s", code, out)
	}
}
