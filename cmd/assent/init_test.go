package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// init writes the starter into the config directory, never over a file
// that is there, and assent then loads it by default.
func TestInit_WritesTheStarterOnce(t *testing.T) {
	state := inTempState(t)
	conf := filepath.Join(state, "config", "assent")
	out, err := run(t, "init")
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	for _, name := range []string{"tools.json", "tools.d/default.md", "policy.json"} {
		if !strings.Contains(out, "wrote   "+filepath.Join(conf, name)) {
			t.Errorf("output lacks that it wrote %s:\n%s", name, out)
		}
	}
	mine := filepath.Join(conf, "tools.json")
	if err := os.WriteFile(mine, []byte(`[{"name": "mine", "command": "id"}]`), 0o644); err != nil {
		t.Fatal(err)
	}
	out, err = run(t, "init")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out, "kept    "+mine) || strings.Contains(out, "wrote") {
		t.Errorf("second init:\n%s", out)
	}
	if data, _ := os.ReadFile(mine); !strings.Contains(string(data), `"mine"`) {
		t.Fatal("init overwrote the operator's tools.json")
	}
	// With no --tools, check reads the config directory: the edited
	// tools.json and the starter's Markdown pack.
	wd := t.TempDir()
	t.Chdir(wd)
	out, err = run(t, "check")
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	for _, want := range []string{mine, filepath.Join(conf, "tools.d", "default.md"), "mine", "read_file"} {
		if !strings.Contains(out, want) {
			t.Errorf("check output lacks %q:\n%s", want, out)
		}
	}
}

func TestVersion(t *testing.T) {
	for _, args := range [][]string{{"version"}, {"--version"}} {
		out, err := run(t, args...)
		if err != nil || !strings.HasPrefix(out, "assent ") || !strings.Contains(out, "go1.") {
			t.Errorf("%v: %q %v", args, out, err)
		}
	}
}

func TestRules_ListAndRemove(t *testing.T) {
	state := inTempState(t)
	path := filepath.Join(state, "assent", "remembered.json")
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		t.Fatal(err)
	}
	rules := `{"rules": [
	  {"id": "saved-1", "decision": "allow", "tool": "date", "saved": "2026-11-30T10:00:00Z"},
	  {"id": "saved-2", "decision": "allow", "tool": "uname", "saved": "2026-11-30T11:00:00Z"}]}`
	if err := os.WriteFile(path, []byte(rules), 0o600); err != nil {
		t.Fatal(err)
	}
	out, err := run(t, "rules")
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	for _, want := range []string{path + ": 2 remembered rules", "saved-1", "saved-2", `"tool":"uname"`, "2026-11-30"} {
		if !strings.Contains(out, want) {
			t.Errorf("rules output lacks %q:\n%s", want, out)
		}
	}
	if out, err := run(t, "rules", "rm", "saved-1"); err != nil || !strings.Contains(out, "removed saved-1") {
		t.Fatalf("rm: %v\n%s", err, out)
	}
	out, _ = run(t, "rules")
	if strings.Contains(out, "saved-1") || !strings.Contains(out, "1 remembered rule\n") {
		t.Errorf("after rm:\n%s", out)
	}
	if _, err := run(t, "rules", "rm", "nope"); err == nil || !strings.Contains(err.Error(), `no remembered rule "nope"`) {
		t.Errorf("rm of an unknown id: %v", err)
	}
}

func TestCompletion_Values(t *testing.T) {
	inTempState(t)
	for _, tc := range []struct {
		args []string
		want []string
	}{
		{[]string{"__complete", "explain", "read_"}, []string{"read_file"}},
		{[]string{"__complete", "explain", "head_file", "li"}, []string{"lines="}},
		{[]string{"__complete", "serve", "--journal-sync", ""}, []string{"group", "always"}},
		{[]string{"__complete", "log", "--decision", ""}, []string{"allow", "ask", "deny"}},
	} {
		out, err := run(t, tc.args...)
		if err != nil {
			t.Fatalf("%v: %v", tc.args, err)
		}
		for _, w := range tc.want {
			if !strings.Contains(out, w) {
				t.Errorf("%v: completions lack %q:\n%s", tc.args, w, out)
			}
		}
	}
}
