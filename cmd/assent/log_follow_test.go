package main

import (
	"context"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/assent-sh/assent/journal"
	"github.com/assent-sh/assent/server/servertest"
)

func TestShortRule(t *testing.T) {
	for in, want := range map[string]string{
		"/home/me/.config/assent/policy.json#3": "policy.json#3",
		"tools.json#0":                          "tools.json#0",
		"read-only":                             "read-only",
		"a/b#c":                                 "a/b#c",
		"dir/file#":                             "dir/file#",
	} {
		if got := shortRule(in); got != want {
			t.Errorf("shortRule(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestLog_NoJournalYetAtTheDefaultLocation(t *testing.T) {
	inTempState(t)
	out, errOut, err := runLog(t)
	if err != nil || out != "" || !strings.Contains(errOut, "no calls journaled yet") {
		t.Errorf("out %q, stderr %q, err %v", out, errOut, err)
	}
}

func TestLog_Follow(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "journal")
	j, err := journal.Open(dir, journal.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer j.Close()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	root := newRootCmd()
	out := &servertest.Buffer{}
	root.SetOut(out)
	root.SetErr(out)
	root.SetArgs([]string{"log", "--journal", dir, "--follow"})
	done := make(chan error, 1)
	go func() { done <- root.ExecuteContext(ctx) }()

	// A call journaled after log started, by another process's segment.
	other, err := journal.Open(dir, journal.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range logRecords()[7:9] {
		if _, err := other.Append(r); err != nil {
			t.Fatal(err)
		}
	}
	other.Close()
	row := regexp.MustCompile(`c3 +codex +write_file +deny +headless +denied`)
	servertest.WaitFor(t, "the call in the followed log", func() bool { return row.MatchString(out.String()) })
	cancel()
	if err := <-done; err != nil {
		t.Errorf("log --follow ended with %v when interrupted", err)
	}
}
