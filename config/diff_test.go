package config

import (
	"strings"
	"testing"
)

func TestDiff_NamesWhatChanged(t *testing.T) {
	const base = `[
	  {"name": "keep", "description": "same", "command": "ls -la -- {dir}", "params": {"dir": {"type": "path", "default": "."}}, "read_only": true},
	  {"name": "gone", "command": "uname -a"},
	  {"name": "edit", "description": "Show the {format}", "command": "date +{format}", "read_only": true}
	]`
	tests := []struct {
		name string
		next string
		want []string
	}{
		{name: "nothing changed", next: base},
		{name: "added, removed and changed", next: `[
		  {"name": "keep", "description": "same", "command": "ls -la -- {dir}", "params": {"dir": {"type": "path", "default": "."}}, "read_only": true},
		  {"name": "edit", "description": "Show the {format}", "command": "date -u +{format}", "timeout": "1m"},
		  {"name": "new", "command": "id"}
		]`, want: []string{"- tool gone",
			"~ tool edit: command /usr/bin/date +{format} → /usr/bin/date -u +{format}, read_only true → false, timeout 30s → 1m0s",
			"+ tool new: runs /usr/bin/id"}},
		{name: "same words printed, different argv", next: `[
		  {"name": "keep", "description": "same", "command": "ls -la -- {dir}", "params": {"dir": {"type": "path", "default": "."}}, "read_only": true},
		  {"name": "gone", "command": ["uname", "-a"]},
		  {"name": "edit", "description": "Show the {format}", "command": ["date", "+{format}"], "read_only": true}
		]`},
		{name: "a split word", next: `[
		  {"name": "keep", "description": "same", "command": ["ls", "-la --", "{dir}"], "params": {"dir": {"type": "path", "default": "."}}, "read_only": true},
		  {"name": "gone", "command": "uname -a", "env": {"A": "x y"}},
		  {"name": "edit", "description": "Show the {format}", "command": "date +{format}", "read_only": true}
		]`, want: []string{"~ tool keep: command /usr/bin/ls -la -- {dir} → /usr/bin/ls '-la --' {dir}",
			"~ tool gone: env (none) → 'A=x y'"}},
		{name: "an added tool shows what it runs", next: base[:len(base)-2] + `,
		  {"name": "wipe", "command": "shred -u -- {f}", "read_only": true}
		]`, want: []string{"+ tool wipe: runs /usr/bin/shred -u -- {f}, read_only true"}},
		{name: "parameter constraint", next: `[
		  {"name": "keep", "description": "same", "command": "ls -la -- {dir}", "params": {"dir": {"type": "path", "default": ".", "description": "where"}}, "read_only": true},
		  {"name": "gone", "command": "uname -a"},
		  {"name": "edit", "description": "Show the {format}", "command": "date +{format}", "read_only": true, "params": {"format": {"max_length": 5}}}
		]`, want: []string{"~ tool keep: parameters changed", "~ tool edit: parameters changed"}},
		{name: "description and output cap", next: `[
		  {"name": "keep", "description": "other", "command": "ls -la -- {dir}", "params": {"dir": {"type": "path", "default": "."}}, "read_only": true, "max_output": 10},
		  {"name": "gone", "command": "uname -a", "shell": false, "stdin": "x"},
		  {"name": "edit", "description": "Show the {format}", "command": "date +{format}", "read_only": true}
		]`, want: []string{"~ tool keep: description changed, max_output 1048576 → 10", "~ tool gone: stdin changed"}},
	}
	opts := testOptions(t)
	prev := mustLoad(t, opts, "tools.json", base)
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			next := mustLoad(t, opts, "tools.json", tc.next)
			var got []string
			for _, c := range Diff(prev, next) {
				got = append(got, c.String())
			}
			if strings.Join(got, "\n") != strings.Join(tc.want, "\n") {
				t.Fatalf("diff\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(tc.want, "\n"))
			}
		})
	}
}

func TestDiff_FromNothing(t *testing.T) {
	next := mustLoad(t, testOptions(t), "tools.json", `[{"name": "a", "command": "id"}]`)
	if got := Diff(nil, next); len(got) != 1 || got[0].String() != "+ tool a: runs /usr/bin/id" {
		t.Fatalf("diff %v", got)
	}
	if got := Diff(next, nil); len(got) != 1 || got[0].String() != "- tool a" {
		t.Fatalf("diff %v", got)
	}
}
