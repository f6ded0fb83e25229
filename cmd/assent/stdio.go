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
		Use:   "stdio [--console NAME | --headless]",
		Short: "Serve MCP on stdin and stdout, for agents that spawn their MCP servers",
		Long: `Serve the tools over MCP on stdin and stdout. Only MCP messages are written to
stdout; logs go to stderr.

Without --headless it relays to the console running in a terminal (` + "`assent`" + `)
over the console's local socket, in the per-user directory both find from the uid
alone (/run/user/UID/assent, else /tmp/assent-UID), whatever the environment: an
agent that can only spawn MCP servers over stdio, with almost no variables set,
reaches the console a person is watching. The directory, the socket and the
console's uid (from the kernel) are checked before anything is sent; no token is
needed or sent. With several consoles running, --console NAME picks one.
Cancelling a request, or closing stdin, withdraws its call.

--headless serves here instead, without a console: rules decide every call, and a
call that would ask an operator is denied.

When stdin ends, every call still running is killed and assent exits; SIGINT or
SIGTERM first answers every call (waiting ones denied, running ones killed), then
exits, and the journal is closed either way. The relay ends at once on SIGINT or
SIGTERM, which withdraws its calls from the console. Exit status: 0 after a clean
end, 1 on any error.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			o, err := appOptionsFrom(cmd.Flags())
			if err != nil {
				return err
			}
			console, _ := cmd.Flags().GetString("console")
			if !o.headless {
				var set []string
				cmd.Flags().Visit(func(f *pflag.Flag) {
					if f.Name != "console" {
						set = append(set, "--"+f.Name)
					}
				})
				if len(set) > 0 {
					return fmt.Errorf("%s only apply with --headless: the relay uses the console's tools, policy and journal", strings.Join(set, ", "))
				}
				return runRelay(cmd.Context(), console, cmd.InOrStdin(), cmd.OutOrStdout(), cmd.ErrOrStderr())
			}
			if console != "" {
				return errors.New("--console names the console to relay to; with --headless assent serves here, without a console")
			}
			return runStdio(cmd.Context(), o, cmd.InOrStdin(), cmd.OutOrStdout(), cmd.ErrOrStderr())
		},
	}
	addAppFlags(cmd.Flags())
	cmd.Flags().String("console", "", "relay to the console with this name (needed when several run)")
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
