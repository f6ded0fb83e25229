package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	osexec "os/exec"
	"path/filepath"
	"strings"

	"github.com/mark3labs/mcp-go/client"
)

// toolsFile offers the tools the driver calls, approved by a rule: hello
// runs unsandboxed, so the targets measure what assent's transport, queue
// and runner add to a spawn; hello_confined runs in the sandbox a tool
// gets by default, which the sandboxed target measures.
const toolsFile = `{"tools": [
 {"name": "hello", "description": "Say hello", "command": "echo hello", "read_only": true, "sandbox": false},
 {"name": "hello_confined", "description": "Say hello, confined", "command": "echo hello", "read_only": true}],
 "rules": [{"id": "read-only", "decision": "allow", "read_only": true}]}`

const token = "load-driver-token-0123456789"

// rig is a scratch directory with a built assent, its tool file and its
// state, so a measurement never touches the operator's journal.
type rig struct {
	dir, bin, tools string
	env             []string
	// clientOpts configure every MCP client (the protocol version).
	clientOpts []client.ClientOption
	// against is the rig of the -against binary: the same tools and
	// clients, its own directory for the servers' journals.
	against *rig
}

// againstSuffix names a target served by the -against binary.
const againstSuffix = " [against]"

// startsAssent reports whether the named target starts an assent binary.
func startsAssent(name string) bool {
	switch name {
	case "raw-stdio", "sandboxed", "raw-http", "stdio", "http", "gosdk":
		return true
	}
	return false
}

// withAgainst readies the rig for the -against binary and returns names
// with each target that starts assent followed by its twin on that
// binary, so the two are measured in the same rounds.
func (s *rig) withAgainst(bin string, names []string) ([]string, error) {
	other := *s
	other.bin, other.dir = bin, filepath.Join(s.dir, "against")
	if err := os.Mkdir(other.dir, 0o700); err != nil {
		return nil, err
	}
	s.against = &other
	var out []string
	for _, name := range names {
		out = append(out, name)
		if base, _, _ := strings.Cut(name, "@"); startsAssent(base) {
			out = append(out, name+againstSuffix)
		}
	}
	return out, nil
}

func newRig(bin, protocol string) (*rig, error) {
	dir, err := os.MkdirTemp("", "assent-load-")
	if err != nil {
		return nil, err
	}
	s := &rig{dir: dir, bin: filepath.Join(dir, "assent"), tools: filepath.Join(dir, "tools.json")}
	if protocol != "" {
		s.clientOpts = []client.ClientOption{client.WithProtocolVersion(protocol)}
	}
	s.env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + dir, "XDG_STATE_HOME=" + filepath.Join(dir, "state"),
		"ASSENT_TOKEN=" + token, serversGOGC()}
	if err := os.WriteFile(s.tools, []byte(toolsFile), 0o600); err != nil {
		s.cleanup()
		return nil, err
	}
	if bin != "" {
		s.bin = bin
	} else if out, err := goBuild(s.bin, "./cmd/assent").CombinedOutput(); err != nil {
		s.cleanup()
		return nil, fmt.Errorf("building assent (run from the repository root): %v\n%s", err, out)
	}
	return s, nil
}

func (s *rig) cleanup() { os.RemoveAll(s.dir) }

// serversGOGC is the GOGC every server the driver starts runs with, assent
// and the floors alike, so that they compare like for like: the driver's
// own GOGC when it has one, else 400, assent's default
// (cmd/assent/gc.go), which a floor would not otherwise get.
func serversGOGC() string {
	if gogc := os.Getenv("GOGC"); gogc != "" {
		return "GOGC=" + gogc
	}
	return "GOGC=400"
}

// serverEnv is the environment of a floor the driver starts from its own
// binary: the driver's, with serversGOGC and the given variables.
func serverEnv(vars ...string) []string {
	return append(append(os.Environ(), serversGOGC()), vars...)
}

// goBuild builds pkg into out as the README installs assent: without cgo,
// so a static binary that needs no dynamic loader or libc at its start.
// The startup floors are built alike, to be measured like for like.
func goBuild(out, pkg string) *osexec.Cmd {
	cmd := osexec.Command("go", "build", "-o", out, pkg)
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
	return cmd
}

// journal is where the server called name keeps its journal: in a
// directory of its own, as an operator's is kept under the state
// directory, and never beside the tool file, whose directory the server
// watches for changes and where every record would be an event. Both
// binaries of -against keep theirs so.
func (s *rig) journal(name string) string { return filepath.Join(s.dir, "journals", name+".jsonl") }

// target builds the named target. A client target may pin a protocol
// era with a suffix: stdio@2025-11-25, gosdk@2026-07-28.
func (s *rig) target(ctx context.Context, name string, c int) (target, error) {
	if base, ok := strings.CutSuffix(name, againstSuffix); ok && s.against != nil {
		t, err := s.against.target(ctx, base, c)
		t.name += againstSuffix
		return t, err
	}
	name, protocol, pinned := strings.Cut(name, "@")
	opts := s.clientOpts
	if pinned {
		opts = []client.ClientOption{client.WithProtocolVersion(protocol)}
	}
	switch name {
	case "exec":
		return bareExec()
	case "hand":
		return s.hand(ctx, false, false)
	case "hand-runner":
		return s.hand(ctx, false, true)
	case "hand-concurrent":
		return s.hand(ctx, true, false)
	case "hand-http":
		return s.handHTTP(ctx, "nethttp", false)
	case "hand-http-runner":
		return s.handHTTP(ctx, "nethttp", true)
	case "hand-tcp":
		return s.handHTTP(ctx, "tcp", false)
	case "hand-tcp-blocking":
		return s.handHTTP(ctx, "tcp-blocking", false)
	case "hand-tcp-watch":
		return s.handHTTP(ctx, "tcp-watch", false)
	case "hand-tcp-runner":
		return s.handHTTP(ctx, "tcp", true)
	case "floor":
		return s.floor(ctx)
	case "raw-stdio":
		return s.rawStdio(ctx, c, "hello")
	case "sandboxed":
		return s.rawStdio(ctx, c, "hello_confined")
	case "raw-http":
		return s.rawHTTP(ctx, c)
	case "inprocess":
		return s.inProcess(c)
	case "stdio":
		return s.stdio(ctx, c, opts, protocol)
	case "http":
		return s.http(ctx, c)
	case "gosdk":
		return s.gosdk(ctx, c, protocol)
	}
	return target{}, fmt.Errorf("unknown target %q (exec, hand, hand-runner, hand-concurrent, hand-http, hand-http-runner, hand-tcp, hand-tcp-blocking, hand-tcp-watch, hand-tcp-runner, floor, raw-stdio, sandboxed, raw-http, inprocess, stdio, http, gosdk)", name)
}

// bareExec runs echo with os/exec, capturing its output as assent does,
// in the environment assent's runner gives it (echoEnv).
func bareExec() (target, error) {
	path, err := osexec.LookPath("echo")
	if err != nil {
		return target{}, err
	}
	env := echoEnv()
	return target{name: "exec", close: func() error { return nil }, call: func(ctx context.Context) error {
		cmd := osexec.CommandContext(ctx, path, "hello")
		cmd.Env = env
		out, err := cmd.Output()
		if err == nil && string(out) != "hello\n" {
			err = fmt.Errorf("echo wrote %q", out)
		}
		return err
	}}, nil
}

// limits are the flags that let c calls run at once.
func limits(c int) []string {
	n := fmt.Sprint(max(c, 16))
	return []string{"--max-running", n, "--max-pending", n}
}

// stdioArgs are the arguments of `assent stdio --headless` for target name.
func (s *rig) stdioArgs(name string, c int) []string {
	return append([]string{"stdio", "--headless", "--tools", s.tools, "--journal", s.journal(name)}, limits(c)...)
}

// rawStdio spawns `assent stdio --headless` for the raw client, calling
// tool.
func (s *rig) rawStdio(ctx context.Context, c int, tool string) (target, error) {
	cmd := osexec.Command(s.bin, s.stdioArgs("raw-"+tool, c)...)
	cmd.Env, cmd.Dir, cmd.Stderr = s.env, s.dir, io.Discard
	name := "stdio (raw client)"
	if tool != "hello" {
		name = "stdio sandboxed (raw)"
	}
	return startRawStdio(ctx, name, tool, cmd)
}

// serveHTTP starts `assent serve --headless --no-socket` on a free port
// and returns its endpoint and how to stop it. --no-socket keeps it out of
// the runtime directory, which is the operator's own whatever the
// environment says: with a socket there, an agent's plain `assent stdio`
// could relay to the benchmark's server, or refuse to choose between it
// and the operator's console.
func (s *rig) serveHTTP(name string, c int) (url string, stop func() error, err error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", nil, err
	}
	addr := ln.Addr().String()
	ln.Close()
	args := append([]string{"serve", "--headless", "--no-socket", "--listen", addr, "--tools", s.tools,
		"--journal", s.journal(name)}, limits(c)...)
	cmd := osexec.Command(s.bin, args...)
	var stderr strings.Builder
	cmd.Env, cmd.Dir, cmd.Stderr = s.env, s.dir, &stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		return "", nil, err
	}
	if err := cmd.Start(); err != nil {
		return "", nil, err
	}
	stop = func() error {
		_ = cmd.Process.Signal(os.Interrupt)
		return cmd.Wait()
	}
	if line, _ := bufio.NewReader(out).ReadString('\n'); !strings.Contains(line, "serving MCP") {
		err := stop()
		return "", nil, errors.Join(fmt.Errorf("assent serve said %q\n%s", line, stderr.String()), err)
	}
	return "http://" + addr + "/mcp", stop, nil
}

// rawHTTP calls `assent serve --headless` with hand-written requests.
func (s *rig) rawHTTP(ctx context.Context, c int) (target, error) {
	url, stop, err := s.serveHTTP("raw-http", c)
	if err != nil {
		return target{}, err
	}
	return startRawHTTP(ctx, "http (raw client)", url, token, stop)
}
