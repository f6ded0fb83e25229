package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	osexec "os/exec"
	"path/filepath"
	"strings"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"
)

// toolsFile offers the one tool the driver calls, approved by a rule.
const toolsFile = `{"tools": [{"name": "hello", "description": "Say hello", "command": "echo hello", "read_only": true}],
 "rules": [{"id": "read-only", "decision": "allow", "read_only": true}]}`

const token = "load-driver-token-0123456789"

// setup is a scratch directory with a built assent, its tool file and its
// state, so a measurement never touches the operator's journal.
type setup struct {
	dir, bin, tools string
	env             []string
	// clientOpts configure every MCP client (the protocol version).
	clientOpts []client.ClientOption
}

func newSetup(bin, protocol string) (*setup, error) {
	dir, err := os.MkdirTemp("", "assent-load-")
	if err != nil {
		return nil, err
	}
	s := &setup{dir: dir, bin: filepath.Join(dir, "assent"), tools: filepath.Join(dir, "tools.json")}
	if protocol != "" {
		s.clientOpts = []client.ClientOption{client.WithProtocolVersion(protocol)}
	}
	s.env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + dir, "XDG_STATE_HOME=" + filepath.Join(dir, "state"),
		"XDG_RUNTIME_DIR=" + filepath.Join(dir, "run"), "ASSENT_TOKEN=" + token}
	if gogc := os.Getenv("GOGC"); gogc != "" {
		s.env = append(s.env, "GOGC="+gogc) // the servers run as this process does
	}
	if err := os.WriteFile(s.tools, []byte(toolsFile), 0o600); err != nil {
		s.cleanup()
		return nil, err
	}
	if bin != "" {
		s.bin = bin
	} else if out, err := osexec.Command("go", "build", "-o", s.bin, "./cmd/assent").CombinedOutput(); err != nil {
		s.cleanup()
		return nil, fmt.Errorf("building assent (run from the repository root): %v\n%s", err, out)
	}
	return s, nil
}

func (s *setup) cleanup() { os.RemoveAll(s.dir) }

// target builds the named target.
func (s *setup) target(ctx context.Context, name string, c int) (target, error) {
	switch name {
	case "exec":
		return bareExec()
	case "floor":
		return s.floor(ctx)
	case "inprocess":
		return s.inProcess(c)
	case "stdio":
		return s.stdio(ctx)
	case "http":
		return s.http(ctx)
	}
	return target{}, fmt.Errorf("unknown target %q (exec, floor, inprocess, stdio, http)", name)
}

// bareExec runs echo with os/exec, capturing its output as assent does.
func bareExec() (target, error) {
	path, err := osexec.LookPath("echo")
	if err != nil {
		return target{}, err
	}
	return target{name: "exec", close: func() error { return nil }, call: func(ctx context.Context) error {
		out, err := osexec.CommandContext(ctx, path, "hello").Output()
		if err == nil && string(out) != "hello\n" {
			err = fmt.Errorf("echo wrote %q", out)
		}
		return err
	}}, nil
}

// mcpTarget calls the hello tool through an initialized client.
func mcpTarget(name string, c *client.Client, closeFn func() error) target {
	return target{name: name, close: closeFn, call: func(ctx context.Context) error {
		var r mcp.CallToolRequest
		r.Params.Name = "hello"
		res, err := c.CallTool(ctx, r)
		if err != nil {
			return err
		}
		if res.IsError || len(res.Content) == 0 {
			return fmt.Errorf("tool error: %+v", res.Content)
		}
		if tc, ok := res.Content[0].(mcp.TextContent); !ok || !strings.HasPrefix(tc.Text, "hello\n") {
			return fmt.Errorf("unexpected result %+v", res.Content)
		}
		return nil
	}}
}

func initialize(ctx context.Context, c *client.Client) error {
	if err := c.Start(ctx); err != nil {
		return err
	}
	var ir mcp.InitializeRequest
	ir.Params.ClientInfo = mcp.Implementation{Name: "load-driver", Version: "1"}
	_, err := c.Initialize(ctx, ir)
	return err
}

// stdio spawns `assent stdio --headless` as the client's child.
func (s *setup) stdio(ctx context.Context) (target, error) {
	tr := transport.NewStdioWithOptions(s.bin, nil, []string{"stdio", "--headless", "--tools", s.tools, "--journal", filepath.Join(s.dir, "stdio.jsonl")},
		transport.WithCommandFunc(func(ctx context.Context, cmd string, _ []string, args []string) (*osexec.Cmd, error) {
			c := osexec.CommandContext(ctx, cmd, args...)
			c.Env, c.Dir, c.Stderr = s.env, s.dir, io.Discard
			return c, nil
		}))
	c := client.NewClient(tr, s.clientOpts...)
	if err := initialize(ctx, c); err != nil {
		return target{}, err
	}
	return mcpTarget("stdio", c, c.Close), nil
}

// http starts `assent serve --headless` on a free port.
func (s *setup) http(ctx context.Context) (target, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return target{}, err
	}
	addr := ln.Addr().String()
	ln.Close()
	cmd := osexec.Command(s.bin, "serve", "--headless", "--listen", addr, "--tools", s.tools,
		"--journal", filepath.Join(s.dir, "http.jsonl"))
	var stderr strings.Builder
	cmd.Env, cmd.Dir, cmd.Stderr = s.env, s.dir, &stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		return target{}, err
	}
	if err := cmd.Start(); err != nil {
		return target{}, err
	}
	stop := func() error {
		_ = cmd.Process.Signal(os.Interrupt)
		return cmd.Wait()
	}
	if line, _ := bufio.NewReader(out).ReadString('\n'); !strings.Contains(line, "serving MCP") {
		err := stop()
		return target{}, errors.Join(fmt.Errorf("assent serve said %q\n%s", line, stderr.String()), err)
	}
	hc := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 256}}
	tr, err := transport.NewStreamableHTTP("http://"+addr+"/mcp", transport.WithHTTPBasicClient(hc),
		transport.WithHTTPHeaders(map[string]string{"Authorization": "Bearer " + token}))
	if err != nil {
		return target{}, errors.Join(err, stop())
	}
	c := client.NewClient(tr, s.clientOpts...)
	if err := initialize(ctx, c); err != nil {
		return target{}, errors.Join(err, stop())
	}
	return mcpTarget("http", c, func() error { return errors.Join(c.Close(), stop()) }), nil
}
