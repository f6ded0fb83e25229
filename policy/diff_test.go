package policy

import (
	"strings"
	"testing"
)

func TestDiffRules_ComparesWrittenRules(t *testing.T) {
	const base = `[
	  {"id": "ro", "decision": "allow", "read_only": true},
	  {"id": "no-burn", "decision": "deny", "tool": "burn", "reason": "never burn"},
	  {"decision": "ask", "tool": "rm"}
	]`
	tests := []struct {
		name string
		next string
		want []string
	}{
		{name: "same rules", next: base},
		{name: "unnamed rule moved", next: `[
		  {"decision": "ask", "tool": "rm"},
		  {"id": "ro", "decision": "allow", "read_only": true},
		  {"id": "no-burn", "decision": "deny", "tool": "burn", "reason": "never burn"}
		]`},
		{name: "removed, changed and added", next: `[
		  {"id": "ro", "decision": "allow", "tool": "*"},
		  {"decision": "ask", "tool": "rm"},
		  {"decision": "allow", "tool": "git"}
		]`, want: []string{
			`~ rule ro: {"id":"ro","decision":"allow","tool":"*"}`,
			`- rule no-burn`,
			`+ rule test.json#2: {"decision":"allow","tool":"git"}`,
		}},
		{name: "unnamed rule edited", next: `[
		  {"id": "ro", "decision": "allow", "read_only": true},
		  {"id": "no-burn", "decision": "deny", "tool": "burn", "reason": "never burn"},
		  {"decision": "allow", "tool": "rm"}
		]`, want: []string{`- rule test.json#2`, `+ rule test.json#2: {"decision":"allow","tool":"rm"}`}},
	}
	prev := mustRules(t, base)
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var got []string
			for _, c := range DiffRules(prev, mustRules(t, tc.next)) {
				got = append(got, c.String())
			}
			if strings.Join(got, "\n") != strings.Join(tc.want, "\n") {
				t.Fatalf("diff\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(tc.want, "\n"))
			}
		})
	}
}
