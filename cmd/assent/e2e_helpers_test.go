package main

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"os"
	osexec "os/exec"
	"path/filepath"
	"strconv"
	"sync"
	"testing"
	"time"

	"go.uber.org/goleak"
)

// builtBinary builds assent once per test run, into a directory removed
// when the run ends (TestMain). Its runtime directory is that directory's
// run/ (testRuntimeDir), never the user's, so the tests' consoles and a
// console a person runs never meet; the tests run one at a time, so each
// finds only its own consoles there.
var builtBinary = sync.OnceValues(func() (string, error) {
	dir, err := os.MkdirTemp("", "assent-e2e-")
	if err != nil {
		return "", err
	}
	bin := filepath.Join(dir, "assent")
	ldflags := "-X main.runtimeDirForTests=" + filepath.Join(dir, "run")
	out, err := osexec.Command("go", "build", "-ldflags", ldflags, "-o", bin, ".").CombinedOutput()
	if err != nil {
		return "", &buildError{err, out}
	}
	return bin, nil
})

type buildError struct {
	err error
	out []byte
}

func (e *buildError) Error() string { return e.err.Error() + ":\n" + string(e.out) }

func TestMain(m *testing.M) {
	code := m.Run()
	if bin, err := builtBinary(); err == nil {
		os.RemoveAll(filepath.Dir(bin))
	}
	if code == 0 {
		if err := goleak.Find(); err != nil {
			fmt.Fprintln(os.Stderr, "goleak:", err)
			code = 1
		}
	}
	os.Exit(code)
}

// e2eTools are the tools every end-to-end test offers. touch_it can write
// in the working directory "work", so assent's own files live elsewhere.
const e2eTools = `{"tools": [
  {"name": "say", "description": "Say a {word}", "command": "echo {word}", "read_only": true},
  {"name": "nap", "description": "Sleep", "command": "sleep {secs}", "read_only": true, "timeout": "300ms"},
  {"name": "follow", "description": "Follow a {path}", "command": "tail -n +1 -f -- {path}",
   "params": {"path": {"type": "path"}}, "read_only": true, "timeout": "20s"},
  {"name": "burn", "description": "Denied", "command": "uname --burn {x}"},
  {"name": "touch_it", "description": "Touch a {file}", "command": "touch -- {file}", "params": {"file": {"type": "path"}}}
 ],
 "rules": [{"id": "read-only", "decision": "allow", "read_only": true, "reason": "read-only tool"},
           {"id": "no-burn", "decision": "deny", "tool": "burn", "reason": "never burn"}]}`

// testRuntimeDir is the runtime directory of the binary the tests built.
func testRuntimeDir(bin string) string { return filepath.Join(filepath.Dir(bin), "run") }

// e2e is one end-to-end setting: a built binary, a directory tree for it
// (conf/tools.json, state/, run/, work/ as its working directory) and the
// environment it runs with. run/ is XDG_RUNTIME_DIR, which assent ignores:
// its runtime directory is testRuntimeDir.
type e2e struct {
	t     *testing.T
	bin   string
	dir   string
	tools string
	env   []string
}

func newE2E(t *testing.T) *e2e {
	t.Helper()
	if testing.Short() {
		t.Skip("end-to-end tests build and run the binary")
	}
	return newE2ESetting(t)
}

// newE2ESetting builds the binary and the directory tree, whatever the
// test flags say.
func newE2ESetting(t *testing.T) *e2e {
	t.Helper()
	bin, err := builtBinary()
	if err != nil {
		t.Fatal(err)
	}
	dir, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range []string{"conf", "state", "run", "work"} {
		if err := os.Mkdir(filepath.Join(dir, d), 0o700); err != nil {
			t.Fatal(err)
		}
	}
	e := &e2e{t: t, bin: bin, dir: dir, tools: filepath.Join(dir, "conf", "tools.json")}
	e.writeTools(e2eTools)
	e.env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + dir,
		"XDG_STATE_HOME=" + filepath.Join(dir, "state"), "XDG_RUNTIME_DIR=" + filepath.Join(dir, "run")}
	return e
}

func (e *e2e) writeTools(text string) {
	e.t.Helper()
	tmp := e.tools + ".tmp"
	if err := os.WriteFile(tmp, []byte(text), 0o600); err != nil {
		e.t.Fatal(err)
	}
	if err := os.Rename(tmp, e.tools); err != nil {
		e.t.Fatal(err)
	}
}

// command returns the binary with args, run in work/ with the test's
// environment.
func (e *e2e) command(ctx context.Context, args ...string) *osexec.Cmd {
	cmd := osexec.CommandContext(ctx, e.bin, args...)
	cmd.Dir = filepath.Join(e.dir, "work")
	cmd.Env = e.env
	return cmd
}

// processesWith lists the processes whose command line mentions marker.
func processesWith(marker string) []int {
	var pids []int
	entries, _ := os.ReadDir("/proc")
	for _, de := range entries {
		pid, err := strconv.Atoi(de.Name())
		if err != nil {
			continue
		}
		cmdline, err := os.ReadFile(filepath.Join("/proc", de.Name(), "cmdline"))
		if err == nil && bytes.Contains(cmdline, []byte(marker)) {
			pids = append(pids, pid)
		}
	}
	return pids
}

// awaitExit waits until process pid has exited (a zombie, not yet reaped
// by its parent), for at most 10 s.
func awaitExit(pid int) error {
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) {
		stat, err := os.ReadFile(filepath.Join("/proc", strconv.Itoa(pid), "stat"))
		if err != nil {
			return err
		}
		// The state follows the command name, which is in parentheses.
		if i := bytes.LastIndexByte(stat, ')'); i > 0 && i+2 < len(stat) && stat[i+2] == 'Z' {
			return nil
		}
		time.Sleep(10 * time.Millisecond)
	}
	return fmt.Errorf("process %d did not exit", pid)
}

// firstLine reads the first line a child writes, or fails after 10 s.
func firstLine(t *testing.T, r *bufio.Reader) string {
	t.Helper()
	line := make(chan string, 1)
	go func() {
		s, _ := r.ReadString('\n')
		line <- s
	}()
	select {
	case s := <-line:
		return s
	case <-time.After(10 * time.Second):
		t.Fatal("no output from the server")
	}
	return ""
}

func writeFile(t *testing.T, path, text string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
}
