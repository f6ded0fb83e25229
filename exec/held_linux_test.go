//go:build linux

package exec

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestLocalRun_SwappedPathIsRefusedAndTheSandboxStillHolds(t *testing.T) {
	// The call was shown reading ROOT/dir/file.txt; before it starts, dir
	// is swapped for a symlink to a directory outside the root.
	root, outside := realTempDir(t), realTempDir(t)
	shown := filepath.Join(root, "dir", "file.txt")
	writeFile(t, shown, "inside")
	writeFile(t, filepath.Join(outside, "dir", "file.txt"), "SECRET")
	cmd := helperCmd(t, "read", shown)
	cmd.Paths = []PathCheck{{Given: shown, Resolved: shown}}
	cmd.Sandbox = &Sandbox{Read: []string{root}}
	l := sandboxLocal(t, Options{})

	if res := l.Run(context.Background(), cmd, nil); string(res.Stdout.Data) != "inside" {
		t.Fatalf("before the swap: stdout %q, stderr %q, start %q", res.Stdout.Data, res.Stderr.Data, res.StartError)
	}
	if err := os.Rename(filepath.Join(root, "dir"), filepath.Join(root, "dir.was")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(outside, "dir"), filepath.Join(root, "dir")); err != nil {
		t.Fatal(err)
	}

	res := l.Run(context.Background(), cmd, nil)
	want := "path " + shown + " now leads to " + filepath.Join(outside, "dir", "file.txt")
	if !res.Refused || !strings.Contains(res.StartError, want) {
		t.Errorf("Refused %v, start error %q; want it refused: %q", res.Refused, res.StartError, want)
	}
	if len(res.Stdout.Data) != 0 {
		t.Errorf("stdout %q: something ran", res.Stdout.Data)
	}

	// With the re-check off, the swap reaches the program; the sandbox,
	// whose rules name the root's own directory, still keeps it out.
	l.skipPathCheck = true
	res = l.Run(context.Background(), cmd, nil)
	requireDenied(t, res)
	if strings.Contains(string(res.Stdout.Data), "SECRET") {
		t.Errorf("the file outside the root was read: stdout %q", res.Stdout.Data)
	}
}

// copyProgram copies the program at from to path, executable.
func copyProgram(t *testing.T, from, path string) {
	t.Helper()
	b, err := os.ReadFile(from)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, b, 0o755); err != nil {
		t.Fatal(err)
	}
}

func TestLocalRun_SwappedProgramIsRefused(t *testing.T) {
	old := time.Date(2020, 1, 1, 0, 0, 0, 0, time.UTC)
	tests := []struct {
		name string
		// swap changes what path leads to, after the identity was taken.
		swap        func(t *testing.T, dir, path string)
		wantRefused bool
	}{
		{name: "unchanged, it runs", swap: func(*testing.T, string, string) {}},
		{name: "symlink retargeted", wantRefused: true, swap: func(t *testing.T, dir, path string) {
			copyProgram(t, "/bin/false", filepath.Join(dir, "other"))
			if err := os.Remove(path); err != nil {
				t.Fatal(err)
			}
			if err := os.Symlink(filepath.Join(dir, "other"), path); err != nil {
				t.Fatal(err)
			}
		}},
		{name: "binary replaced by rename", wantRefused: true, swap: func(t *testing.T, dir, path string) {
			copyProgram(t, "/bin/false", filepath.Join(dir, "new"))
			if err := os.Rename(filepath.Join(dir, "new"), filepath.Join(dir, "real")); err != nil {
				t.Fatal(err)
			}
		}},
		{name: "binary rewritten in place, same size", wantRefused: true, swap: func(t *testing.T, dir, path string) {
			b, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(path, b, 0o755); err != nil { // truncates and writes the same bytes
				t.Fatal(err)
			}
		}},
	}
	l := NewLocal(Options{})
	t.Cleanup(func() { l.Close() })
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := realTempDir(t)
			real, path := filepath.Join(dir, "real"), filepath.Join(dir, "tool")
			copyProgram(t, "/bin/true", real)
			// An old time, so a rewrite within the same clock tick still
			// shows in the modification time.
			if err := os.Chtimes(real, old, old); err != nil {
				t.Fatal(err)
			}
			if err := os.Symlink(real, path); err != nil {
				t.Fatal(err)
			}
			id, err := IdentityOf(path, true)
			if err != nil {
				t.Fatal(err)
			}
			tt.swap(t, dir, path)
			res := l.Run(context.Background(), Command{Path: path, Argv: []string{"tool"}, Program: id}, nil)
			want := "program " + path + " changed since the tool file loaded; reload to accept it"
			if tt.wantRefused {
				if !res.Refused || res.StartError != want {
					t.Errorf("Refused %v, start error %q, exit %d; want refused: %q", res.Refused, res.StartError, res.ExitCode, want)
				}
				return
			}
			if res.ExitCode != 0 || res.StartError != "" {
				t.Errorf("exit %d, start error %q; want the pinned program to run", res.ExitCode, res.StartError)
			}
		})
	}
}

func TestLocalRun_PinnedProgramRunsFromTheCheckedFile(t *testing.T) {
	// A pinned binary is executed through the descriptor whose identity
	// was compared (execveat with AT_EMPTY_PATH), so the kernel runs that
	// file even if the path were swapped in between: the child's AT_EXECFN
	// is then /dev/fd/N, not the path. An unpinned one runs by its path.
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	id, err := IdentityOf(exe, false)
	if err != nil {
		t.Fatal(err)
	}
	l := NewLocal(Options{})
	t.Cleanup(func() { l.Close() })
	for _, pinned := range []bool{true, false} {
		cmd := helperCmd(t, "execfn")
		if pinned {
			cmd.Program = id
		}
		res := l.Run(context.Background(), cmd, nil)
		if res.ExitCode != 0 {
			t.Fatalf("exit %d, stderr %q, start %q", res.ExitCode, res.Stderr.Data, res.StartError)
		}
		got := string(res.Stdout.Data)
		if byFD := strings.HasPrefix(got, "/dev/fd/"); byFD != pinned {
			t.Errorf("pinned %v: the kernel ran %q", pinned, got)
		}
	}
}

func TestSandbox_ARootSwappedForASymlinkIsRefusedNotUnconfined(t *testing.T) {
	// A write root replaced by a symlink to a directory outside: the rules
	// cannot name the root, and the call must not run unconfined for it,
	// best-effort or not.
	root, outside := realTempDir(t), realTempDir(t)
	write := filepath.Join(root, "out")
	if err := os.Symlink(outside, write); err != nil {
		t.Fatal(err)
	}
	l := sandboxLocal(t, Options{})
	target := filepath.Join(write, "new")
	cmd := helperCmd(t, "create", target)
	cmd.Sandbox = &Sandbox{Write: []string{write}}
	res := l.Run(context.Background(), cmd, nil)
	if !res.Refused || !strings.Contains(res.StartError, "now goes through a symlink") {
		t.Errorf("Refused %v, start error %q, exit %d; want refused", res.Refused, res.StartError, res.ExitCode)
	}
	requireAbsent(t, filepath.Join(outside, "new"))
}
