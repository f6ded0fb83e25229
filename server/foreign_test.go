package server

import (
	"bufio"
	"os"
	osexec "os/exec"
	"path/filepath"
	"syscall"
	"testing"
)

// foreignUID is the user the attack tests act as; they need root.
const foreignUID = 4242

// asForeignUser starts this test binary as foreignUID, running only the
// test named run with env, and returns it and its stdout. The binary is
// copied into a fresh directory that user can reach; the process is
// killed when the test ends.
func asForeignUser(t *testing.T, run string, env ...string) (*osexec.Cmd, *bufio.Reader) {
	t.Helper()
	home := runtimeDir(t)
	if err := os.Chmod(home, 0o755); err != nil {
		t.Fatal(err)
	}
	self, err := os.ReadFile("/proc/self/exe")
	if err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(home, "helper")
	if err := os.WriteFile(bin, self, 0o755); err != nil {
		t.Fatal(err)
	}
	cmd := osexec.Command(bin, "-test.run=^"+run+"$")
	cmd.Env = env
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: foreignUID, Gid: foreignUID}}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	return cmd, bufio.NewReader(stdout)
}

// foreignDir is a fresh directory owned by foreignUID, where that user
// may create files, inside one this user owns and that user can reach.
func foreignDir(t *testing.T) string {
	t.Helper()
	home := runtimeDir(t)
	if err := os.Chmod(home, 0o755); err != nil {
		t.Fatal(err)
	}
	own := filepath.Join(home, "own")
	if err := os.Mkdir(own, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.Chown(own, foreignUID, foreignUID); err != nil {
		t.Fatal(err)
	}
	return own
}
