package config

import (
	"os"
	"path/filepath"
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

// A program system_command allows that is replaced after load is refused
// by exec until the change is applied, so a reload must show it; so must
// an allowed name that now resolves to another file.
func TestDiff_SystemCommandPrograms(t *testing.T) {
	opts := testOptions(t)
	first, early := filepath.Join(opts.WorkDir, "bin"), filepath.Join(opts.WorkDir, "early")
	for _, d := range []string{first, early} {
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	say := filepath.Join(first, "say")
	if err := os.WriteFile(say, []byte("#!/bin/sh\necho one\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	opts.PATH = early + ":" + first + ":/usr/bin:/bin"
	const tools = `{"settings": {"system_command": {"allow": ["say", "ls"]}}}`
	prev := mustLoad(t, opts, "tools.json", tools)
	tests := []struct {
		name   string
		change func(t *testing.T)
		want   string
	}{
		{name: "nothing changed", change: func(*testing.T) {}},
		{name: "replaced", change: func(t *testing.T) {
			if err := os.WriteFile(say+".new", []byte("#!/bin/sh\necho two, longer\n"), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.Rename(say+".new", say); err != nil {
				t.Fatal(err)
			}
		}, want: "~ tool system_command: program " + say + " changed since it loaded"},
		{name: "found elsewhere on PATH", change: func(t *testing.T) {
			if err := os.WriteFile(filepath.Join(early, "say"), []byte("#!/bin/sh\n"), 0o755); err != nil {
				t.Fatal(err)
			}
		}, want: "~ tool system_command: program say " + say + " → " + filepath.Join(early, "say")},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			tc.change(t)
			var got []string
			for _, c := range Diff(prev, mustLoad(t, opts, "tools.json", tools)) {
				got = append(got, c.String())
			}
			switch all := strings.Join(got, "\n"); {
			case tc.want == "" && all != "":
				t.Fatalf("diff %q, want none", all)
			case !strings.Contains(all, tc.want):
				t.Fatalf("diff %q, want %q", all, tc.want)
			}
		})
	}
}
