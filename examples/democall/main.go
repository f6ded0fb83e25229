// Command democall plays an agent for the demo: it waits for a running
// assent (through its runtime file), connects over Streamable HTTP with the
// bearer token, makes three calls to the default pack's tools and prints
// what the agent gets back. Start it in the background before the console:
//
//	go run ./examples/democall > /tmp/democall.log 2>&1 &
//	go run ./cmd/assent --policy examples/democall/ask.json
//
// With ask.json every call waits for the operator, so the console shows
// all three; democall prints each answer as it arrives.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"maps"
	"net/http"
	"os"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
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
	runtimeFile := flag.String("runtime", "", "assent's runtime file (default: where assent writes it)")
	wait := flag.Duration("wait", 2*time.Minute, "how long to wait for assent to start")
	flag.Parse()
	if err := run(*runtimeFile, *wait, os.Stdout); err != nil {
		fmt.Fprintln(os.Stdout, "democall:", err)
		os.Exit(1)
	}
}

func run(runtimeFile string, wait time.Duration, out io.Writer) error {
	if runtimeFile == "" {
		p, err := server.RuntimePath()
		if err != nil {
			return err
		}
		runtimeFile = p
	}
	ctx, cancel := context.WithTimeout(context.Background(), wait)
	defer cancel()
	hc := &http.Client{Transport: &http.Transport{}}
	defer hc.CloseIdleConnections()
	c, err := connect(ctx, hc, runtimeFile)
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

// connect waits until the runtime file names a live server that answers,
// then returns an initialized client carrying its token.
func connect(ctx context.Context, hc *http.Client, runtimeFile string) (*client.Client, error) {
	var last error
	for {
		c, err := tryConnect(ctx, hc, runtimeFile)
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

func tryConnect(ctx context.Context, hc *http.Client, runtimeFile string) (*client.Client, error) {
	rt, err := server.ReadRuntime(runtimeFile)
	if err != nil {
		return nil, err
	}
	tok, err := token(rt)
	if err != nil {
		return nil, err
	}
	tr, err := transport.NewStreamableHTTP(rt.URL, transport.WithHTTPBasicClient(hc),
		transport.WithHTTPHeaders(map[string]string{"Authorization": "Bearer " + tok}))
	if err != nil {
		return nil, err
	}
	c := client.NewClient(tr)
	if err := c.Start(context.Background()); err != nil {
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

// token reads the bearer token from where the runtime file says it is.
func token(rt server.Runtime) (string, error) {
	if rt.TokenEnv != "" {
		if tok := os.Getenv(rt.TokenEnv); tok != "" {
			return tok, nil
		}
		return "", fmt.Errorf("assent took its token from $%s, which is not set here", rt.TokenEnv)
	}
	if rt.TokenFile == "" {
		return "", errors.New("the runtime file names no token")
	}
	data, err := os.ReadFile(rt.TokenFile)
	return strings.TrimSpace(string(data)), err
}

// text is a result's text: one block, as assent answers.
func text(r *mcp.CallToolResult) string {
	parts := make([]string, len(r.Content))
	for i, c := range r.Content {
		parts[i] = mcp.GetTextFromContent(c)
	}
	return strings.Join(parts, "")
}
