package main

import (
	"bytes"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/assent-sh/assent/journal"
)

// tableCalls are n calls as a real journal names them (segment-N), the
// last of them with cells wider than their columns' usual contents.
func tableCalls(n int) []journal.Call {
	at := time.Date(2026, 12, 1, 23, 44, 50, 0, time.UTC)
	calls := make([]journal.Call, n)
	for i := range calls {
		calls[i] = journal.Call{ID: fmt.Sprintf("20261201T234450Z-58bc858f4791-%d", i+1), Time: at, Client: "claude-code",
			Tool: "list_files", Decision: journal.Allow, Decider: journal.ByRule, Rule: "default:read-only",
			Ending: journal.Exited, Exit: journal.ExitCode(0), Duration: 2 * time.Millisecond,
			Reason: "read-only tool", Argv: []string{"ls", "-la", "--", "."}}
	}
	last := &calls[n-1]
	last.Client, last.Tool, last.Decision, last.Rule = "claude-code-desktop", "read_file", journal.Deny, "default:secret-files"
	last.Ending, last.Exit, last.Duration = journal.Denied, nil, 0
	last.Reason, last.Argv = "the file's name marks it as one that usually holds secrets (built-in default policy)", []string{"cat", "--", ".env"}
	return calls
}

// columnStarts are where each column's header begins.
func columnStarts(header string) []int {
	var starts []int
	for i := range header {
		if header[i] != ' ' && (i == 0 || header[i-1] == ' ') {
			starts = append(starts, i)
		}
	}
	return starts
}

// TestLog_TableColumnsLineUp: with call ids as the journal writes them,
// every cell begins under its column's header, both when the table is
// sized from the calls it lists and when it is followed, row by row. Only
// a cell wider than any column is padded to (REASON, here) pushes the rest
// of its row along.
func TestLog_TableColumnsLineUp(t *testing.T) {
	tests := []struct {
		name   string
		follow bool
		calls  []journal.Call
		upTo   int // the columns that must line up in every row
	}{
		{name: "listed, ids up to 12, wide cells sized from the rows", calls: tableCalls(12), upTo: 10},
		{name: "followed, ids up to 99", follow: true, calls: tableCalls(99)[:98], upTo: 11},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var out bytes.Buffer
			w := newCallWriter(&out, false, tt.follow)
			for _, c := range tt.calls {
				if err := w.write(c); err != nil {
					t.Fatal(err)
				}
			}
			if err := w.flush(); err != nil {
				t.Fatal(err)
			}
			lines := strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n")
			starts := columnStarts(lines[0])
			if len(starts) != len(logColumns()) || len(lines) != len(tt.calls)+1 {
				t.Fatalf("header %q, %d lines:\n%s", lines[0], len(lines), out.String())
			}
			for _, row := range lines[1:] {
				for _, s := range starts[:tt.upTo] {
					if len(row) <= s || row[s] == ' ' || (s > 0 && row[s-1] != ' ') {
						t.Fatalf("a cell of this row does not begin at column %d:\n%s\n%s", s, lines[0], row)
					}
				}
			}
		})
	}
}
