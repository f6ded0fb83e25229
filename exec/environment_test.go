//go:build unix

package exec

import (
	"context"
	"slices"
	"strings"
	"testing"
)

func TestLocalEnviron_BaseAndDeclared(t *testing.T) {
	l := NewLocal(Options{Home: "/home/op"})
	base := []string{"PATH=/usr/local/bin:/usr/bin:/bin", "HOME=/home/op", "LANG=C.UTF-8", "LC_ALL=C.UTF-8", "TERM=dumb"}
	tests := []struct {
		name     string
		declared []string
		want     []string
	}{
		{name: "nothing declared", want: base},
		{name: "declared pairs follow the base", declared: []string{"TZ=UTC", "FOO=a=b"},
			want: append(slices.Clone(base), "TZ=UTC", "FOO=a=b")},
		{name: "a declared key replaces the base pair in place", declared: []string{"LANG=de_DE.UTF-8", "TERM=xterm"},
			want: []string{"PATH=/usr/local/bin:/usr/bin:/bin", "HOME=/home/op", "LANG=de_DE.UTF-8", "LC_ALL=C.UTF-8", "TERM=xterm"}},
		{name: "the last of two declared pairs wins", declared: []string{"X=1", "X=2"},
			want: append(slices.Clone(base), "X=2")},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := l.Environ(tt.declared)
			if !slices.Equal(got, tt.want) {
				t.Errorf("Environ(%q) = %q, want %q", tt.declared, got, tt.want)
			}
			got[0] = "PATH=/changed"
			if l.environ(nil)[0] == "PATH=/changed" {
				t.Error("changing what Environ returned changed every child's base")
			}
		})
	}
}

func TestLocalRun_EnvironmentIsNotInherited(t *testing.T) {
	// Everything promise 14 names, plus a stand-in for the server's secrets.
	leaks := map[string]string{
		"LD_PRELOAD":       "/nonexistent/libevil.so",
		"LD_LIBRARY_PATH":  "/nonexistent",
		"BASH_ENV":         "/nonexistent/rc",
		"ENV":              "/nonexistent/rc",
		"IFS":              "x",
		"PYTHONPATH":       "/nonexistent",
		"PYTHONSTARTUP":    "/nonexistent",
		"PERL5LIB":         "/nonexistent",
		"PERL5OPT":         "-Mevil",
		"GIT_DIR":          "/nonexistent/.git",
		"GIT_SSH_COMMAND":  "evil",
		"PAGER":            "evil",
		"EDITOR":           "evil",
		"ASSENT_TOKEN":     "secret",
		"PATH":             "/nonexistent/bin:" + "/usr/bin",
		"HOME":             "/nonexistent/home",
		"TERM":             "xterm-256color",
		"LC_ALL":           "tr_TR.UTF-8",
		"ASSENT_TEST_LEAK": "yes",
	}
	for k, v := range leaks {
		t.Setenv(k, v)
	}
	l := NewLocal(Options{Home: "/home/op"})
	res := l.Run(context.Background(), helperCmd(t, "env"), nil)
	got := strings.Split(string(res.Stdout.Data), "\x00")
	want := append(l.environ(nil), helperEnviron("env")...)
	slices.Sort(got)
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Errorf("child environment\n got %q\nwant %q", got, want)
	}
	for _, kv := range got {
		k, v, _ := strings.Cut(kv, "=")
		if lv, ok := leaks[k]; ok && lv == v {
			t.Errorf("%s leaked from the server's environment", kv)
		}
	}
}
