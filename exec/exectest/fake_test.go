package exectest

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/assent-sh/assent/exec"
)

// recorder is a testing.TB that keeps the errors the fake reports.
type recorder struct {
	testing.TB
	errs []string
}

func (r *recorder) Errorf(format string, args ...any) {
	r.errs = append(r.errs, format)
}

func TestFake_ExpectCommandMatchesTheWholeCommand(t *testing.T) {
	want := exec.Command{Path: "/usr/bin/tee", Argv: []string{"tee", "--", "f"}, Dir: "/w", Env: []string{"A=1"}, Stdin: "hi",
		Timeout: time.Second, MaxOutput: 10, OnOverflow: exec.Kill, Sandbox: &exec.Sandbox{Write: []string{"/w"}},
		Program: exec.Identity{Dev: 1, Ino: 2, Size: 3}, Paths: []exec.PathCheck{{Given: "/w/f", Resolved: "/w/f"}}}
	for _, tc := range []struct {
		name   string
		change func(c *exec.Command)
		ok     bool
	}{
		{"the same", func(*exec.Command) {}, true},
		{"another path", func(c *exec.Command) { c.Path = "/bin/tee" }, false},
		{"another cwd", func(c *exec.Command) { c.Dir = "/x" }, false},
		{"another env", func(c *exec.Command) { c.Env = []string{"A=2"} }, false},
		{"another stdin", func(c *exec.Command) { c.Stdin = "ho" }, false},
		{"another argv", func(c *exec.Command) { c.Argv = []string{"tee", "g"} }, false},
		{"another timeout", func(c *exec.Command) { c.Timeout = time.Minute }, false},
		{"another output cap", func(c *exec.Command) { c.MaxOutput = 11 }, false},
		{"another overflow", func(c *exec.Command) { c.OnOverflow = exec.Drain }, false},
		{"a wider sandbox", func(c *exec.Command) { c.Sandbox = &exec.Sandbox{Write: []string{"/w", "/home"}} }, false},
		{"no sandbox", func(c *exec.Command) { c.Sandbox = nil }, false},
		{"another program file", func(c *exec.Command) { c.Program.Ino = 9 }, false},
		{"a path check dropped", func(c *exec.Command) { c.Paths = nil }, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rec := &recorder{TB: t}
			f := New(rec)
			f.ExpectCommand(want)
			got := want
			got.Argv, got.Env = append([]string(nil), want.Argv...), append([]string(nil), want.Env...)
			tc.change(&got)
			res := f.Run(context.Background(), got, nil)
			if ok := len(rec.errs) == 0 && res.StartError == ""; ok != tc.ok {
				t.Errorf("matched = %v, want %v (errors %v, %s)", ok, tc.ok, rec.errs, res.StartError)
			}
			if !tc.ok && !strings.Contains(res.StartError, "unexpected command") {
				t.Errorf("start error %q", res.StartError)
			}
		})
	}
}
