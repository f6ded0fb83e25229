package main

import (
	"bytes"
	"strings"
	"testing"

	"github.com/assent-sh/assent/journal"
	"github.com/assent-sh/assent/policy"
)

// TestCounts_OneIsSingular: every count the command line prints says "1
// rule", not "1 rules", and keeps the plural for the rest.
func TestCounts_OneIsSingular(t *testing.T) {
	one := journal.Report{Records: 1, Seals: 1, TornBytes: 1, Segments: make([]journal.SegmentReport, 1),
		Faults: []journal.Fault{{Kind: journal.FaultKind("chain"), Problem: "its hash does not match its contents"}}}
	two := journal.Report{Records: 2, Seals: 2, TornBytes: 2, Segments: make([]journal.SegmentReport, 2),
		Faults: make([]journal.Fault, 2)}
	rules, err := policy.ParseRules("test.json", []byte(`[{"id": "only", "decision": "allow", "tool": "ls"}]`))
	if err != nil {
		t.Fatal(err)
	}
	pol, err := policy.New(rules, nil)
	if err != nil {
		t.Fatal(err)
	}
	saved, err := policy.ParseRules("session", []byte(`[{"id": "kept", "decision": "allow", "tool": "uname"}]`))
	if err != nil {
		t.Fatal(err)
	}
	if err := pol.RememberSession(saved[0]); err != nil {
		t.Fatal(err)
	}
	empty, err := policy.New(nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name  string
		print func(*bytes.Buffer)
		want  []string
	}{
		{"verify, one of each", func(b *bytes.Buffer) { writeReport(b, "j", one) },
			[]string{"j: 1 record in 1 segment, 1 seal, 1 problem\n", "  1 byte of unfinished last lines"}},
		{"verify, two of each", func(b *bytes.Buffer) { writeReport(b, "j", two) },
			[]string{"j: 2 records in 2 segments, 2 seals, 2 problems\n", "  2 bytes of unfinished last lines"}},
		{"verify, a single file", func(b *bytes.Buffer) {
			writeReport(b, "j", journal.Report{Records: 1, Seals: 1, Head: "h"})
		}, []string{"j: 1 record, 1 seal, intact, head h\n"}},
		{"check, one rule", func(b *bytes.Buffer) { printRules(b, pol) },
			[]string{"\n1 rule (deny beats ask", "\n1 remembered rule\n"}},
		{"check, no rules", func(b *bytes.Buffer) { printRules(b, empty) },
			[]string{"\n0 rules (deny beats ask", "\n0 remembered rules\n"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var b bytes.Buffer
			tt.print(&b)
			for _, w := range tt.want {
				if !strings.Contains(b.String(), w) {
					t.Errorf("output lacks %q:\n%s", w, b.String())
				}
			}
		})
	}
}
