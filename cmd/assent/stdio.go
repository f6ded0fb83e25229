package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

func newStdioCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "stdio [--headless]",
		Short: "Serve MCP on stdin and stdout, for agents that spawn their MCP servers",
		Long: `Serve the tools over MCP on stdin and stdout. Only MCP messages are written to
stdout; logs go to stderr.

Without --headless it relays to the console running in a terminal (` + "`assent`" + `),
found through its runtime file ($XDG_RUNTIME_DIR/assent/server.json) and using its
token: an agent that can only spawn MCP servers over stdio reaches the console a
person is watching. Cancelling a request, or closing stdin, withdraws its call.

--headless serves here instead, without a console: rules decide every call, and a
call that would ask an operator is denied.

When stdin ends, every call still running is killed and assent exits; SIGINT or
SIGTERM first answers every call (waiting ones denied, running ones killed), then
exits. The journal is closed either way. Exit status: 0 after a clean end, 1 on
any error.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			o, err := appOptionsFrom(cmd.Flags())
			if err != nil {
				return err
			}
			if !o.headless {
				var set []string
				cmd.Flags().Visit(func(f *pflag.Flag) { set = append(set, "--"+f.Name) })
				if len(set) > 0 {
					return fmt.Errorf("%s only apply with --headless: the relay uses the console's tools, policy and journal", strings.Join(set, ", "))
				}
				return runRelay(cmd.Context(), cmd.InOrStdin(), cmd.OutOrStdout(), cmd.ErrOrStderr())
			}
			return runStdio(cmd.Context(), o, cmd.InOrStdin(), cmd.OutOrStdout(), cmd.ErrOrStderr())
		},
	}
	addAppFlags(cmd.Flags())
	return cmd
}

// runStdio serves until stdin ends or ctx ends (a signal). On a signal the
// queue is closed first, so every call gets its answer on stdout, and only
// then is the transport stopped.
func runStdio(ctx context.Context, o appOptions, stdin io.Reader, stdout, stderr io.Writer) error {
	a, err := newApp(o, stderr)
	if err != nil {
		return err
	}
	stop := a.followHeadless(ctx)
	listen, cancel := context.WithCancel(context.Background())
	defer cancel()
	ended := make(chan struct{})
	go func() {
		select {
		case <-ctx.Done():
			a.log.Info("shutting down")
			cctx, ccancel := context.WithTimeout(context.Background(), 15*time.Second)
			_ = a.queue.Close(cctx, "assent is shutting down")
			ccancel()
			cancel()
		case <-ended:
		}
	}()
	serr := a.server.ServeStdio(listen, stdin, stdout)
	close(ended)
	if ctx.Err() != nil && errors.Is(serr, context.Canceled) {
		serr = nil // stopped on a signal, as asked
	}
	stop()
	return errors.Join(serr, a.close("the client closed stdin"))
}
