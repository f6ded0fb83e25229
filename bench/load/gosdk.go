package main

import (
	"context"
	"fmt"
	"io"
	osexec "os/exec"
	"strings"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// gosdk spawns `assent stdio --headless` as go-sdk's client's command and
// calls hello through it, in the protocol era given (empty: go-sdk's own
// choice).
func (s *rig) gosdk(ctx context.Context, c int, protocol string) (target, error) {
	cmd := osexec.Command(s.bin, s.stdioArgs("gosdk", c)...)
	cmd.Env, cmd.Dir, cmd.Stderr = s.env, s.dir, io.Discard
	cl := sdk.NewClient(&sdk.Implementation{Name: "load-driver-gosdk", Version: "1"}, nil)
	cs, err := cl.Connect(ctx, &sdk.CommandTransport{Command: cmd}, &sdk.ClientSessionOptions{ProtocolVersion: protocol})
	if err != nil {
		return target{}, err
	}
	name := "stdio (go-sdk client)"
	if protocol != "" {
		name = "stdio (go-sdk " + protocol + ")"
	}
	return target{name: name, close: cs.Close, call: func(ctx context.Context) error {
		res, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: "hello", Arguments: map[string]any{}})
		if err != nil {
			return err
		}
		if res.IsError || len(res.Content) == 0 {
			return fmt.Errorf("tool error: %+v", res.Content)
		}
		if tc, ok := res.Content[0].(*sdk.TextContent); !ok || !strings.HasPrefix(tc.Text, "hello\n") {
			return fmt.Errorf("unexpected result %+v", res.Content[0])
		}
		return nil
	}}, nil
}
