package main

import (
	"bytes"
	"log"
	"net"
	"os"
	osexec "os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"go.uber.org/goleak"
)

// TestRun_FindsAssentAndCalls builds assent and serves it headless from the
// repository root with the demo's policy, then runs democall: it finds the
// console's socket (in a runtime directory of the test's own, built into
// this assent) and prints an answer to each call. Headless, every ask is a
// denial, so each answer is one.
func TestRun_FindsAssentAndCalls(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs assent")
	}
	defer goleak.VerifyNone(t)
	dir := t.TempDir()
	bin := filepath.Join(dir, "assent")
	runDir := filepath.Join(dir, "run")
	if out, err := osexec.Command("go", "build", "-ldflags", "-X main.runtimeDirForTests="+runDir,
		"-o", bin, "../../cmd/assent").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	const token = "democall-test-token-0123456789"
	t.Setenv("ASSENT_TOKEN", token)
	t.Setenv("XDG_STATE_HOME", filepath.Join(dir, "state"))
	t.Setenv("XDG_CONFIG_HOME", filepath.Join(dir, "config"))

	var stderr bytes.Buffer
	srv := osexec.Command(bin, "serve", "--headless", "--listen", addr, "--policy", "examples/democall/ask.json")
	srv.Dir = filepath.Join("..", "..")
	srv.Env = os.Environ()
	srv.Stderr = &stderr
	if err := srv.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() {
		_ = srv.Process.Signal(syscall.SIGTERM)
		_ = srv.Wait()
	}()

	// mcp-go's transport logs through the default logger; what it says at
	// exit reached the demo's terminal ("Error reading from stdout … use
	// of closed network connection"). The test is not parallel, so it may
	// take the default logger's output for its run.
	var logged bytes.Buffer
	log.SetOutput(&logged)
	defer log.SetOutput(os.Stderr)
	var out bytes.Buffer
	if err := run(runDir, "", 20*time.Second, &out); err != nil {
		t.Fatalf("%v\n%s\nassent's stderr:\n%s", err, out.String(), stderr.String())
	}
	if logged.Len() > 0 {
		t.Errorf("democall logged:\n%s", logged.String())
	}
	got := out.String()
	for _, want := range []string{
		"connected; calling 3 tools",
		"1. list_files directory=examples\n   refused: denied: no approver is attached (headless): the demo asks",
		"2. read_file path=go.mod\n   refused: denied: no approver is attached (headless): the demo asks",
		"3. get_datetime format=%H:%M\n   refused: denied: no approver is attached (headless): the demo asks",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("output lacks %q:\n%s", want, got)
		}
	}
}
