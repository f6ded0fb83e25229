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

// A --token-file that does not exist is an error, never a new token made in
// its place (clients holding the old one would get 401), and a --journal
// that does not exist is an error too.
func TestFlags_MissingFilesAreErrors(t *testing.T) {
	inTempState(t)
	missing := filepath.Join(t.TempDir(), "no", "dir", "tok")
	if _, err := run(t, "token", "--token-file", missing); err == nil || !strings.Contains(err.Error(), "--token-file "+missing) {
		t.Errorf("token --token-file missing: %v", err)
	}
	if _, err := os.Stat(filepath.Dir(missing)); err == nil {
		t.Error("a directory was made for the missing token file")
	}
	if _, err := run(t, "token", "--rotate", "--token-file", missing); err == nil {
		t.Error("rotate made directories for a token file")
	}
	if _, err := run(t, "log", "--journal", filepath.Join(t.TempDir(), "nonexistent")); err == nil {
		t.Error("log --journal of a missing journal succeeded")
	}
	made := filepath.Join(t.TempDir(), "tok")
	if out, err := run(t, "token", "--rotate", "--token-file", made); err != nil || len(strings.TrimSpace(out)) < 16 {
		t.Fatalf("rotate into an existing directory: %v %q", err, out)
	}
	if out, err := run(t, "token", "--token-file", made); err != nil || len(strings.TrimSpace(out)) < 16 {
		t.Errorf("an existing token file: %v %q", err, out)
	}
}
