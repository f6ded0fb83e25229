// Command conformance runs the MCP conformance suite's server scenarios
// against `assent serve --headless`, for CI (.ci/run):
//
//	conformance run -assent BIN -suite DIR
//
// starts assent on a free loopback port with tools.json (the fixture
// tools the suite calls), a state directory of its own and no local socket
// (--no-socket, so no agent on the machine relays to it), puts a
// loopback shim in front of it that adds the bearer token (the suite
// cannot send one), and runs `conformance server` from the npm package in
// DIR with expected-failures.yml. Its exit status is the suite's: non-zero
// on any unexpected failure, and on a listed scenario that now passes.
//
// `conformance tick N MS` prints N lines MS milliseconds apart: the
// fixture's slow tool, whose output reaches the suite as progress.
package main

import (
	"bufio"
	"context"
	"errors"
	"flag"
	"fmt"
	"net"
	"net/url"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"
)

func main() {
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: conformance run -assent BIN -suite DIR | conformance tick N MS")
		os.Exit(2)
	}
	var err error
	switch os.Args[1] {
	case "tick":
		err = tick(os.Args[2:])
	case "run":
		err = run(os.Args[2:])
	default:
		err = fmt.Errorf("unknown command %q", os.Args[1])
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "conformance:", err)
		os.Exit(1)
	}
}

// tick prints n lines, ms milliseconds apart.
func tick(args []string) error {
	if len(args) != 2 {
		return errors.New("usage: tick N MS")
	}
	n, err1 := strconv.Atoi(args[0])
	ms, err2 := strconv.Atoi(args[1])
	if err := errors.Join(err1, err2); err != nil {
		return err
	}
	for i := 1; i <= n; i++ {
		if i > 1 {
			time.Sleep(time.Duration(ms) * time.Millisecond)
		}
		fmt.Printf("step %d of %d\n", i, n)
	}
	return nil
}

func run(args []string) error {
	fs := flag.NewFlagSet("run", flag.ContinueOnError)
	bin := fs.String("assent", "", "the assent binary")
	suite := fs.String("suite", "", "directory where @modelcontextprotocol/conformance is installed (node_modules inside)")
	node := fs.String("node", "node", "the node binary (22 or newer)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *bin == "" || *suite == "" {
		return errors.New("-assent and -suite are required")
	}
	self, err := os.Executable()
	if err != nil {
		return err
	}
	here, err := fixtureDir()
	if err != nil {
		return err
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	state, err := os.MkdirTemp("", "assent-conformance-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(state)

	const token = "conformance-token-0123456789abcdef"
	addr, err := freeAddr()
	if err != nil {
		return err
	}
	// --no-socket: the runtime directory is the user's own, whatever the
	// environment says, and an agent's `assent stdio` must not relay here.
	srv := exec.CommandContext(ctx, *bin, "serve", "--headless", "--no-socket", "--listen", addr,
		"--tools", filepath.Join(here, "tools.json"), "--journal", filepath.Join(state, "journal.jsonl"))
	// The fixture's tick tool is this program: its directory leads PATH.
	srv.Env = []string{"PATH=" + filepath.Dir(self) + ":/usr/bin:/bin", "HOME=" + state,
		"XDG_STATE_HOME=" + state, "XDG_CONFIG_HOME=" + state, "ASSENT_TOKEN=" + token}
	srv.Stderr = os.Stderr
	out, err := srv.StdoutPipe()
	if err != nil {
		return err
	}
	if err := srv.Start(); err != nil {
		return err
	}
	defer func() { _ = srv.Process.Signal(syscall.SIGTERM); _ = srv.Wait() }()
	line, _ := bufio.NewReader(out).ReadString('\n')
	if !strings.Contains(line, "serving MCP at") {
		return fmt.Errorf("assent did not start: %q", line)
	}
	target := &url.URL{Scheme: "http", Host: addr, Path: "/mcp"}
	proxy, ln, err := shim(target, token)
	if err != nil {
		return err
	}
	defer proxy.Close()

	cli := filepath.Join(*suite, "node_modules", "@modelcontextprotocol", "conformance", "dist", "index.js")
	expected := filepath.Join(here, "expected-failures.yml")
	results := filepath.Join(state, "results")
	suiteCmd := exec.CommandContext(ctx, *node, cli, "server",
		"--url", "http://"+ln.Addr().String()+"/mcp", "--expected-failures", expected, "--output-dir", results)
	suiteCmd.Stdout, suiteCmd.Stderr = os.Stdout, os.Stderr
	suiteCmd.Dir = state
	if err := suiteCmd.Run(); err != nil {
		reportFailures(os.Stderr, results, expected)
		return err
	}
	return nil
}

// fixtureDir is the directory of tools.json and expected-failures.yml:
// this package's, found from the working directory (the module root or
// this directory).
func fixtureDir() (string, error) {
	for _, dir := range []string{"server/conformance", "."} {
		if _, err := os.Stat(filepath.Join(dir, "tools.json")); err == nil {
			return filepath.Abs(dir)
		}
	}
	return "", errors.New("run it from the module root: server/conformance/tools.json not found")
}

// freeAddr is a loopback address nothing listens on now.
func freeAddr() (string, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", err
	}
	defer ln.Close()
	return ln.Addr().String(), nil
}
