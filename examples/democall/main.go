// Command democall plays an agent for the demo: it waits for a running
// assent, connects over its local socket (as `assent stdio` relays), makes
// three calls to the default pack's tools and prints
// what the agent gets back. Start it in the background before the console:
//
//	go run ./examples/democall > /tmp/democall.log 2>&1 &
//	go run ./cmd/assent --tools examples/default.json --policy examples/democall/ask.json
//
// With ask.json every call waits for the operator, so the console shows
// all three; democall prints each answer as it arrives. --tools keeps the
// console to the read-only default pack: tools from the config directory
// that may write the repository would make assent refuse ask.json, a policy
// file they could rewrite.
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"maps"
	"os"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/assent-sh/assent/server"
)

// call is one tool call the demo agent makes.
type call struct {
	tool string
	args map[string]any
}

// String is the call as `assent explain` takes it: tool key=value...
func (c call) String() string {
	words := []string{c.tool}
	for _, k := range slices.Sorted(maps.Keys(c.args)) {
		words = append(words, fmt.Sprintf("%s=%v", k, c.args[k]))
	}
	return strings.Join(words, " ")
}

// demoCalls are the calls, in the order they reach the console: one to
// approve, one to deny, one to edit.
func demoCalls() []call {
	return []call{
		{"list_files", map[string]any{"directory": "examples"}},
		{"read_file", map[string]any{"path": "go.mod"}},
		{"get_datetime", map[string]any{"format": "%H:%M"}},
	}
}

func main() {
	console := flag.String("console", "", "the console's name, when several run")
	wait := flag.Duration("wait", 2*time.Minute, "how long to wait for assent to start")
	flag.Parse()
	if err := run("", *console, *wait, os.Stdout); err != nil {
		fmt.Fprintln(os.Stdout, "democall:", err)
		os.Exit(1)
	}
}

// run connects to the console in dir ("" is the per-user runtime
// directory; tests give their own) and makes the calls.
func run(dir, console string, wait time.Duration, out io.Writer) error {
	ctx, cancel := context.WithTimeout(context.Background(), wait)
	defer cancel()
	c, err := connect(ctx, dir, console)
	if err != nil {
		return err
	}
	defer c.Close()
	calls := demoCalls()
	fmt.Fprintln(out, "connected; calling", len(calls), "tools")
	// The calls go out a moment apart, so the console lists them in this
	// order, and wait together for the operator.
	var mu sync.Mutex
	var wg sync.WaitGroup
	for i, dc := range calls {
		wg.Go(func() {
			var req mcp.CallToolRequest
			req.Params.Name, req.Params.Arguments = dc.tool, dc.args
			res, err := c.CallTool(context.Background(), req)
			mu.Lock()
			defer mu.Unlock()
			fmt.Fprintf(out, "\n%d. %s\n", i+1, dc)
			switch {
			case err != nil:
				fmt.Fprintln(out, "   error:", err)
			case res.IsError:
				fmt.Fprintln(out, "   refused:", text(res))
			default:
				fmt.Fprintln(out, "   "+strings.ReplaceAll(strings.TrimRight(text(res), "\n"), "\n", "\n   "))
			}
		})
		time.Sleep(300 * time.Millisecond)
	}
	wg.Wait()
	return nil
}

// connect waits until a console answers on its socket, then returns an
// initialized client.
func connect(ctx context.Context, dir, console string) (*session, error) {
	var last error
	for {
		c, err := tryConnect(ctx, dir, console)
		if err == nil {
			return c, nil
		}
		last = err
		select {
		case <-ctx.Done():
			return nil, fmt.Errorf("no assent to call: %w", last)
		case <-time.After(200 * time.Millisecond):
		}
	}
}

func tryConnect(ctx context.Context, dir, console string) (*session, error) {
	conn, _, err := server.DialConsole(dir, console)
	if err != nil {
		return nil, err
	}
	c := newSession(conn)
	if err := c.Start(context.Background()); err != nil {
		_ = c.Close()
		return nil, err
	}
	var ir mcp.InitializeRequest
	ir.Params.ClientInfo = mcp.Implementation{Name: "democall", Version: "1"}
	ictx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	if _, err := c.Initialize(ictx, ir); err != nil {
		_ = c.Close()
		return nil, err
	}
	return c, nil
}

// text is a result's text: one block, as assent answers.
func text(r *mcp.CallToolResult) string {
	parts := make([]string, len(r.Content))
	for i, c := range r.Content {
		parts[i] = mcp.GetTextFromContent(c)
	}
	return strings.Join(parts, "")
}
