package config

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/assent-sh/assent/exec"
)

// TestPath_KernelTreesNeedTheirOwnRoot is the read of assent's own
// environment through a default pack run from /: a root of / no longer
// admits /proc, /sys or /dev; a root that lies there does.
func TestPath_KernelTreesNeedTheirOwnRoot(t *testing.T) {
	opts := testOptions(t)
	opts.WorkDir = "/"
	c := mustLoad(t, opts, "t.json", `[
	  {"name": "read_file", "command": "cat -- {path}", "params": {"path": {"type": "path"}}, "read_only": true},
	  {"name": "shm", "command": "cat -- {path}", "params": {"path": {"type": "path", "under": ["/dev/shm", "/proc/sys"]}}, "read_only": true}
	]`)
	for _, p := range []string{"/proc/self/environ", "proc/self/environ", "/proc/1/cmdline", "/sys/kernel",
		"/dev/stdin", "/dev/null", "/dev/fd/0", "/dev/shm"} {
		_, err := c.Tool("read_file").Expand(map[string]any{"path": p})
		var ae *ArgError
		if !errors.As(err, &ae) || ae.Rule != "path" || !strings.Contains(err.Error(), "where the kernel shows processes and devices") {
			t.Errorf("read_file %s: %v, want a refusal", p, err)
		}
	}
	for _, p := range []string{"/etc/hostname", "usr/bin"} {
		if _, err := c.Tool("read_file").Expand(map[string]any{"path": p}); err != nil {
			t.Errorf("read_file %s: %v", p, err)
		}
	}
	for _, p := range []string{"/dev/shm", "/proc/sys/kernel"} {
		if _, err := c.Tool("shm").Expand(map[string]any{"path": p}); err != nil {
			t.Errorf("a root in the tree refused %s: %v", p, err)
		}
	}
}

func TestExpand_PathsAsResolvedAndAsGiven(t *testing.T) {
	opts := testOptions(t)
	w := opts.WorkDir
	for _, d := range []string{"sub", "real"} {
		if err := os.Mkdir(filepath.Join(w, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink("real", filepath.Join(w, "link")); err != nil {
		t.Fatal(err)
	}
	tool := oneTool(t, opts, `{"name": "t", "command": "uname -- {files...} {label}", "cwd": "{dir}",
	  "params": {"files": {"type": "path"}, "dir": {"type": "path"}}}`)
	e, err := tool.Prepare(map[string]any{"files": []any{"link/x", "sub/../sub/y"}, "dir": "sub", "label": "not a path"})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{w + "/real/x", w + "/sub/y", w + "/sub"}
	if !reflect.DeepEqual(e.Paths, want) {
		t.Errorf("Paths %q, want %q", e.Paths, want)
	}
	checks := []exec.PathCheck{{Given: w + "/link/x", Resolved: w + "/real/x"}, {Given: w + "/sub/y", Resolved: w + "/sub/y"},
		{Given: w + "/sub", Resolved: w + "/sub"}}
	if !reflect.DeepEqual(e.Command.Paths, checks) {
		t.Errorf("Command.Paths %+v, want %+v", e.Command.Paths, checks)
	}
	sc := mustLoad(t, opts, "sc.json", `{"settings": {"system_command": {"allow": ["ls"]}}}`).Tool(SystemCommandName)
	e, err = sc.Prepare(map[string]any{"command": "ls", "cwd": "link"})
	if err != nil || !reflect.DeepEqual(e.Paths, []string{w + "/real"}) ||
		!reflect.DeepEqual(e.Command.Paths, []exec.PathCheck{{Given: w + "/link", Resolved: w + "/real"}}) {
		t.Errorf("system_command paths %q %+v, %v", e.Paths, e.Command.Paths, err)
	}
}

func TestWithin_ComparesWholeComponents(t *testing.T) {
	tests := []struct {
		p, root string
		want    bool
	}{
		{"/srv/app", "/srv/app", true},
		{"/srv/app/x", "/srv/app", true},
		{"/srv/app-evil", "/srv/app", false},
		{"/srv/ap", "/srv/app", false},
		{"/srv", "/srv/app", false},
		{"/anything", "/", true},
		{"/", "/", true},
	}
	for _, tt := range tests {
		if got := within(tt.p, tt.root); got != tt.want {
			t.Errorf("within(%q, %q) = %v, want %v", tt.p, tt.root, got, tt.want)
		}
	}
}

func TestTidyPaths_SortsAndDropsCovered(t *testing.T) {
	tests := []struct{ in, want []string }{
		{nil, nil},
		{[]string{}, nil},
		{[]string{"/b", "/a/x", "/a", "/a", "/ab"}, []string{"/a", "/ab", "/b"}},
		{[]string{"/usr/bin/ls", "/", "/tmp"}, []string{"/"}},
	}
	for _, tt := range tests {
		if got := tidyPaths(slices.Clone(tt.in)); !reflect.DeepEqual(got, tt.want) {
			t.Errorf("tidyPaths(%q) = %#v, want %#v", tt.in, got, tt.want)
		}
	}
}
