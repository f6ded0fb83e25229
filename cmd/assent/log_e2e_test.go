package main

import (
	"context"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client"

	"github.com/assent-sh/assent/server/servertest"
)

// TestLog_HeadlessServersShareTheDefaultJournal runs two `assent stdio
// --headless` at once with the default journal, as agents spawn one per
// session: both serve, and `assent log` shows both processes' calls in the
// order they were made.
func TestLog_HeadlessServersShareTheDefaultJournal(t *testing.T) {
	e := newE2E(t)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	var n1, n2 servertest.Notes
	first, _, _ := e.stdioServer(nil, &n1)
	second, _, _ := e.stdioServer(nil, &n2)
	for i, c := range []*client.Client{first, second, first} {
		word := []string{"one", "two", "three"}[i]
		res, err := servertest.Call(ctx, c, "say", map[string]any{"word": word}, "")
		if err != nil || res.IsError || servertest.Text(res) == "" {
			t.Fatalf("say %s: %v %v", word, res, err)
		}
	}
	dir := e.dir + "/state/assent/journal"
	out, _, err := runLog(t, "--journal", dir)
	if err != nil {
		t.Fatal(err)
	}
	if !regexp.MustCompile(`(?s)allow .* echo one\n.* echo two\n.* echo three\n$`).MatchString(out) {
		t.Errorf("log does not show the three calls in order:\n%s", out)
	}
	if out, _, err := runLog(t, "--journal", dir, "--verify"); err != nil || !strings.Contains(out, "in 2 segments") {
		t.Errorf("log --verify with both running: %v\n%s", err, out)
	}
}
