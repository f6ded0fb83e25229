package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	osexec "os/exec"
	"strings"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"
)

// The SDK targets: mcp-go's client over stdio and HTTP.

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

// stdio spawns `assent stdio --headless` as the mcp-go client's child;
// protocol, when set, names the era opts pin.
func (s *rig) stdio(ctx context.Context, c int, opts []client.ClientOption, protocol string) (target, error) {
	tr := transport.NewStdioWithOptions(s.bin, nil, s.stdioArgs("stdio", c),
		transport.WithCommandFunc(func(ctx context.Context, cmd string, _ []string, args []string) (*osexec.Cmd, error) {
			c := osexec.CommandContext(ctx, cmd, args...)
			c.Env, c.Dir, c.Stderr = s.env, s.dir, io.Discard
			return c, nil
		}))
	cl := client.NewClient(tr, opts...)
	if err := initialize(ctx, cl); err != nil {
		return target{}, err
	}
	name := "stdio (mcp-go client)"
	if protocol != "" {
		name = "stdio (mcp-go " + protocol + ")"
	}
	return mcpTarget(name, cl, cl.Close), nil
}

// http calls `assent serve --headless` through mcp-go's client.
func (s *rig) http(ctx context.Context, c int) (target, error) {
	url, stop, err := s.serveHTTP("http", c)
	if err != nil {
		return target{}, err
	}
	hc := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 1024}}
	tr, err := transport.NewStreamableHTTP(url, transport.WithHTTPBasicClient(hc),
		transport.WithHTTPHeaders(map[string]string{"Authorization": "Bearer " + token}))
	if err != nil {
		return target{}, errors.Join(err, stop())
	}
	cl := client.NewClient(tr, s.clientOpts...)
	if err := initialize(ctx, cl); err != nil {
		return target{}, errors.Join(err, stop())
	}
	return mcpTarget("http (mcp-go client)", cl, func() error { return errors.Join(cl.Close(), stop()) }), nil
}
