package main

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/assent-sh/assent/server"
	"github.com/assent-sh/assent/server/servertest"
)

// TestE2E_HTTPRuntimeFileAndShutdown checks the runtime file while the
// server runs, a second server on the same port failing clearly, and a
// SIGTERM ending it cleanly and removing its socket and runtime file.
func TestE2E_HTTPRuntimeFileAndShutdown(t *testing.T) {
	e := newE2E(t)
	url, cmd, stderr := e.httpServer()
	rtPath := filepath.Join(testRuntimeDir(e.bin), "console.json")
	rt, err := server.ReadRuntime(rtPath)
	if err != nil {
		t.Fatal(err)
	}
	if rt.URL != url || rt.Name != "console" || rt.Socket != filepath.Join(testRuntimeDir(e.bin), "console.sock") || rt.PID != cmd.Process.Pid {
		t.Fatalf("runtime file %+v", rt)
	}
	addr := strings.TrimSuffix(strings.TrimPrefix(url, "http://"), "/mcp")
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	second := e.command(ctx, "serve", "--headless", "--listen", addr, "--journal", filepath.Join(e.dir, "state", "second.jsonl"))
	second.Env = append(second.Env, "ASSENT_TOKEN="+e2eToken)
	out, err := second.CombinedOutput()
	if err == nil || !strings.Contains(string(out), addr+" is already in use") {
		t.Fatalf("second server on the same port: %v\n%s", err, out)
	}
	// A call running at the signal is answered before the server exits.
	c := e.httpClient(url, nil, nil)
	writeFile(t, filepath.Join(e.dir, "work", "sigterm.log"), "x\n")
	answer := make(chan string, 1)
	go func() {
		res, err := servertest.Call(context.Background(), c, "follow", map[string]any{"path": "sigterm.log"}, "")
		if err != nil {
			answer <- "error: " + err.Error()
			return
		}
		answer <- servertest.Text(res)
	}()
	servertest.WaitFor(t, "the call to run", func() bool { return len(processesWith("sigterm.log")) > 0 })
	if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	if err := cmd.Wait(); err != nil {
		t.Fatalf("exit after SIGTERM: %v\n%s", err, stderr)
	}
	if got := <-answer; !strings.HasPrefix(got, "cancelled while running: assent shut down") {
		t.Fatalf("the running call was answered %q", got)
	}
	if pids := processesWith("sigterm.log"); len(pids) > 0 {
		t.Fatalf("children left: %v", pids)
	}
	for _, p := range []string{rtPath, rt.Socket} {
		if _, err := os.Lstat(p); !os.IsNotExist(err) {
			t.Fatalf("%s left behind: %v", p, err)
		}
	}
}

func TestE2E_ServeRefusals(t *testing.T) {
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"console without a terminal", []string{"serve"}, "the console needs a terminal"},
		{"bare assent is the console", nil, "the console needs a terminal"},
		{"negative approval timeout", []string{"--approval-timeout", "-1s"}, "must not be negative"},
		{"stdio with no console running", []string{"stdio"}, "no console is running"},
		{"remote without the flag", []string{"serve", "--headless", "--listen", "0.0.0.0:0"}, "pass --allow-remote"},
	}
	e := newE2E(t)
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			defer cancel()
			cmd := e.command(ctx, tc.args...)
			// A session of its own: no controlling terminal for the
			// console to take, wherever the tests run.
			cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
			out, err := cmd.CombinedOutput()
			if err == nil || !strings.Contains(string(out), tc.want) {
				t.Fatalf("%v\n%s", err, out)
			}
		})
	}
}

// TestE2E_TokenNeverReachesChildren runs printenv under a server whose
// token came from the environment: the child's environment is built from
// scratch, so the token is not in it.
func TestE2E_TokenNeverReachesChildren(t *testing.T) {
	e := newE2E(t)
	e.writeTools(`{"tools": [{"name": "show", "command": "printenv ASSENT_TOKEN", "read_only": true}],
	 "rules": [{"decision": "allow", "read_only": true}]}`)
	url, _, _ := e.httpServer()
	c := e.httpClient(url, nil, nil)
	res, err := servertest.Call(context.Background(), c, "show", nil, "")
	if err != nil {
		t.Fatal(err)
	}
	if text := servertest.Text(res); res.IsError || strings.Contains(text, e2eToken) || !strings.HasPrefix(text, "[exit 1 · ") {
		t.Fatalf("isError %v, text %q", res.IsError, text)
	}
}

// TestE2E_ServeRefusesATokenFileAToolCanWrite names a token file inside
// the working directory, where touch_it writes: an agent could set the
// token there, so serve refuses to start.
func TestE2E_ServeRefusesATokenFileAToolCanWrite(t *testing.T) {
	e := newE2E(t)
	tok := filepath.Join(e.dir, "work", "token")
	writeFile(t, tok, e2eToken+"\n")
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	out, err := e.command(ctx, "serve", "--headless", "--listen", "127.0.0.1:0", "--tools", e.tools, "--token-file", tok).CombinedOutput()
	if want := "token file " + tok + " lies under"; err == nil || !strings.Contains(string(out), want) {
		t.Fatalf("serve with a token file a tool can write: %v, want an error saying %q\n%s", err, want, out)
	}
}

// TestE2E_ServeNoSocket serves with --no-socket: nothing appears in the
// runtime directory, the first line offers no relay, and a plain
// `assent stdio` finds no console to relay to.
func TestE2E_ServeNoSocket(t *testing.T) {
	e := newE2E(t)
	before, _ := os.ReadDir(testRuntimeDir(e.bin))
	first, _, _, _ := e.serveHeadless("--no-socket")
	if strings.Contains(first, "relay") {
		t.Errorf("the first line offers a relay: %q", first)
	}
	if after, _ := os.ReadDir(testRuntimeDir(e.bin)); len(after) != len(before) {
		t.Errorf("the runtime directory held %v, now %v", before, after)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	relay := e.command(ctx, "stdio")
	relay.Stdin = strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"ping"}` + "\n")
	if out, err := relay.CombinedOutput(); err == nil || !strings.Contains(string(out), "no console is running") {
		t.Errorf("assent stdio beside a --no-socket server: %v\n%s", err, out)
	}
}
