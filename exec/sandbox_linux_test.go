//go:build linux

package exec

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// sandboxLocal returns a runner for sandbox tests, closed at the end of
// the test, and skips the test where the kernel has no Landlock.
func sandboxLocal(t *testing.T, o Options) *Local {
	t.Helper()
	return simulatedLocal(t, o, simulated{})
}

// simulatedLocal is sandboxLocal on a system made to lack what sim names.
func simulatedLocal(t *testing.T, o Options, sim simulated) *Local {
	t.Helper()
	if abi, err := landlockABI(); abi == 0 {
		t.Skipf("no Landlock here: %v", err)
	}
	l := NewLocal(o)
	l.simulate = sim
	t.Cleanup(func() { l.Close() })
	return l
}

// realTempDir is a temporary directory with its symlinks resolved, as
// config hands sandbox paths over.
func realTempDir(t *testing.T) string {
	t.Helper()
	d, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// writeFile creates path with content, failing the test otherwise.
func writeFile(t *testing.T, path, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
}

// requireDenied checks that a run failed as a program does when the
// kernel says EACCES: a non-zero exit and "permission denied" on stderr,
// with the sandbox reported as holding.
func requireDenied(t *testing.T, res Result) {
	t.Helper()
	if res.StartError != "" {
		t.Fatalf("not started: %s", res.StartError)
	}
	if res.ExitCode == 0 || !strings.Contains(strings.ToLower(string(res.Stderr.Data)), "permission denied") {
		t.Errorf("exit %d, stderr %q; want a failure with permission denied (EACCES)", res.ExitCode, res.Stderr.Data)
	}
	if !res.Confinement.Confined() {
		t.Errorf("confinement %q, want the sandbox to hold", res.Confinement)
	}
}

// requireAbsent fails if path exists.
func requireAbsent(t *testing.T, path string) {
	t.Helper()
	if _, err := os.Lstat(path); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("%s exists (%v): the sandboxed program created it", path, err)
	}
}

func TestSandbox_ReadOnlyToolWritesNothing(t *testing.T) {
	root := realTempDir(t)
	inTmp := filepath.Join(os.TempDir(), "assent-sandbox-"+filepath.Base(filepath.Dir(root)))
	t.Cleanup(func() { os.Remove(inTmp) })
	l := sandboxLocal(t, Options{})
	shell := func(target string) Command {
		return Command{Path: "/bin/sh", Argv: []string{"sh", "-c", "echo x > " + target}}
	}
	tests := []struct {
		name   string
		cmd    Command
		target string
	}{
		{name: "a file in its own read root", cmd: helperCmd(t, "create", filepath.Join(root, "new")), target: filepath.Join(root, "new")},
		{name: "a file in /tmp", cmd: helperCmd(t, "create", inTmp), target: inTmp},
		{name: "a shell redirect in its own read root", cmd: shell(filepath.Join(root, "sh")), target: filepath.Join(root, "sh")},
		{name: "a shell redirect in /tmp", cmd: shell(inTmp), target: inTmp},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cmd := tt.cmd
			cmd.Sandbox = &Sandbox{Read: []string{root}}
			res := l.Run(context.Background(), cmd, nil)
			requireDenied(t, res)
			requireAbsent(t, tt.target)
		})
	}
}

func TestSandbox_WriteToolWritesOnlyBelowItsRoot(t *testing.T) {
	root, outside := realTempDir(t), realTempDir(t)
	l := sandboxLocal(t, Options{})
	sb := &Sandbox{Write: []string{root}}

	inside := filepath.Join(root, "sub", "new")
	if err := os.Mkdir(filepath.Dir(inside), 0o755); err != nil {
		t.Fatal(err)
	}
	cmd := helperCmd(t, "create", inside)
	cmd.Sandbox = sb
	if res := l.Run(context.Background(), cmd, nil); res.ExitCode != 0 {
		t.Fatalf("writing inside the root: exit %d, stderr %q, start %q", res.ExitCode, res.Stderr.Data, res.StartError)
	}
	if _, err := os.Stat(inside); err != nil {
		t.Errorf("the file written inside the root is not there: %v", err)
	}

	target := filepath.Join(outside, "new")
	cmd = helperCmd(t, "create", target)
	cmd.Sandbox = sb
	requireDenied(t, l.Run(context.Background(), cmd, nil))
	requireAbsent(t, target)
}

func TestSandbox_SecretsOutsideTheSetsCannotBeRead(t *testing.T) {
	home, root := realTempDir(t), realTempDir(t)
	secrets := map[string]string{
		"ssh key":     filepath.Join(home, ".ssh", "x"),
		"token":       filepath.Join(home, ".config", "assent", "token"),
		"journal key": filepath.Join(home, ".local", "state", "assent", "journal.key"),
	}
	for _, p := range secrets {
		writeFile(t, p, "SECRET")
	}
	// What assent holds open, and its environment, are reachable through
	// /proc, which the sandbox lets a program read; the kernel's ptrace
	// checks, which Landlock refuses across the sandbox's edge, keep them.
	open, err := os.Open(secrets["token"])
	if err != nil {
		t.Fatal(err)
	}
	defer open.Close()
	self := "/proc/" + strconv.Itoa(os.Getpid())
	secrets["token through assent's open descriptor"] = self + "/fd/" + strconv.Itoa(int(open.Fd()))
	secrets["assent's environment"] = self + "/environ"
	secrets["assent's memory"] = self + "/mem"
	if os.Geteuid() == 0 {
		// Root reads these past their modes: only the system base, which
		// names what it needs of /etc rather than all of it, keeps them.
		for _, p := range []string{"/etc/shadow", "/etc/gshadow", "/etc/ssh/ssh_host_ed25519_key"} {
			if _, err := os.Stat(p); err == nil {
				secrets[strings.TrimPrefix(p, "/")] = p
			}
		}
	}
	writeFile(t, filepath.Join(root, "notes.txt"), "visible")
	l := sandboxLocal(t, Options{Home: home})
	sb := &Sandbox{Read: []string{root}, Write: []string{filepath.Join(root, "out")}}

	cmd := helperCmd(t, "read", filepath.Join(root, "notes.txt"))
	cmd.Sandbox = sb
	if res := l.Run(context.Background(), cmd, nil); res.ExitCode != 0 || string(res.Stdout.Data) != "visible" {
		t.Fatalf("reading inside the read set: exit %d, stdout %q, stderr %q", res.ExitCode, res.Stdout.Data, res.Stderr.Data)
	}
	for name, p := range secrets {
		t.Run(name, func(t *testing.T) {
			cmd := helperCmd(t, "read", p)
			cmd.Sandbox = sb
			res := l.Run(context.Background(), cmd, nil)
			requireDenied(t, res)
			if strings.Contains(string(res.Stdout.Data), "SECRET") {
				t.Errorf("the secret was read: stdout %q", res.Stdout.Data)
			}
		})
	}
}
