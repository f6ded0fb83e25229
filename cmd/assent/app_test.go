package main

import (
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/spf13/pflag"
)

// A start whose files are refused touches no journal: not when the
// refusal is that a tool could write where the journal would be, where
// opening it would write its key for the agent to read, nor for any other.
func TestNewApp_ARefusedStartLeavesTheJournalUnmade(t *testing.T) {
	inTempState(t)
	dir := t.TempDir()
	writable := filepath.Join(dir, "w")
	if err := os.Mkdir(writable, 0o700); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name, tools, want string
	}{
		{"the journal where a tool writes", `[{"name": "touch_it", "command": "touch -- {file}",
		  "params": {"file": {"type": "path", "under": ["` + writable + `"]}}}]`, "lies under " + writable},
		{"a bad tool file", `[{"name": "bad", "command": "ls ; rm"}]`, "bad"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tools := filepath.Join(dir, strings.ReplaceAll(tc.name, " ", "-")+".json")
			if err := os.WriteFile(tools, []byte(tc.tools), 0o600); err != nil {
				t.Fatal(err)
			}
			journalDir := filepath.Join(writable, "journal-"+filepath.Base(tools))
			f := pflag.NewFlagSet("stdio", pflag.ContinueOnError)
			addAppFlags(f)
			if err := f.Parse([]string{"--headless", "--tools", tools, "--journal", journalDir}); err != nil {
				t.Fatal(err)
			}
			o, err := appOptionsFrom(f)
			if err != nil {
				t.Fatal(err)
			}
			a, err := newApp(o, io.Discard)
			if err == nil {
				a.close("test")
				t.Fatal("the start was not refused")
			}
			if !strings.Contains(err.Error(), tc.want) {
				t.Errorf("refused with %v; want it to say %q", err, tc.want)
			}
			if _, err := os.Lstat(journalDir); !os.IsNotExist(err) {
				entries, _ := os.ReadDir(journalDir)
				t.Errorf("the refused start made the journal %s (%v): %d entries", journalDir, err, len(entries))
			}
		})
	}
}
