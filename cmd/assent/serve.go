package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/assent-sh/assent/journal"
	"github.com/assent-sh/assent/replay"
	"github.com/assent-sh/assent/server"
)

// serveLong is the help shared by `assent` and `assent serve`: both run the
// same thing with the same flags.
const serveLong = `Open the console in this terminal and serve the tools over MCP (Streamable HTTP,
at /mcp) on a fixed loopback port. Every call that policy sends to "ask" waits
in the console, with its exact argv, until the operator approves, denies or
edits it. With no --tools, the tool files in $XDG_CONFIG_HOME/assent are used
(` + "`assent init`" + ` writes a starter there), else the embedded default pack.

Every request needs the bearer token (` + "`assent token`" + ` prints it; ASSENT_TOKEN
or --token-file override it); requests with a foreign Host or Origin are
refused, and bodies are capped.

It also listens on a local socket, NAME.sock, in a per-user directory found
from the uid alone (/run/user/UID/assent when /run/user/UID is this user's,
else /tmp/assent-UID; created 0700 and checked), for ` + "`assent stdio`" + ` to relay
to: no token is needed there, only the same user. NAME is --console, or the
first free of "console", "console-2", …; a name in use is an error. NAME.json
beside it tells people and scripts the URL and pid. --no-socket serves HTTP
alone and takes nothing in that directory: for a server that must never meet
an agent's plain ` + "`assent stdio`" + `, such as a benchmark's or CI's.

While the console owns the terminal, logs go to a file, by default
$XDG_STATE_HOME/assent/console.log (~/.local/state/assent/console.log when
XDG_STATE_HOME is unset); errors that stop assent from starting go to stderr.
Commands run in a session of their own, with no access to the terminal.
Changes to the tool and policy files are shown in the console and applied
only when the operator confirms.

--headless runs without a console: rules decide every call, a call that would
ask an operator is denied with a reason the agent sees, and logs go to stderr.
Changes to the files are logged, and applied as they are saved with --watch.

Quitting the console (q) denies waiting calls ("console closed") and kills
running ones; so do SIGINT and SIGTERM. Then HTTP and the socket stop, the
console's files are removed and the journal closed. Exit status: 0 after a clean shutdown, 1 on
any error.`

// serveOptions is one `assent` or `assent serve` invocation.
type serveOptions struct {
	app         appOptions
	listen      string
	allowRemote bool
	tokenFile   string
	noBell      bool
	noNotify    bool
	logFile     string
	// console names the local socket; "" takes the first free default.
	console string
	// noSocket serves HTTP alone: no console name, socket or runtime file
	// is taken, so `assent stdio` never relays to this server.
	noSocket bool
	// replay are journaled calls submitted again once serving, in order
	// (`assent replay`); replayed receives each one's comparison.
	replay   []journal.Call
	replayed func(replay.Comparison)
}

func newServeCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "serve",
		Short: "The console, serving MCP over Streamable HTTP on 127.0.0.1:7323 (same as `assent`)",
		Long:  serveLong,
		Args:  cobra.NoArgs,
		RunE:  runServe,
	}
	addServeFlags(cmd.Flags())
	return cmd
}

// addServeFlags declares the flags of `assent` and `assent serve`.
func addServeFlags(f *pflag.FlagSet) {
	addAppFlags(f)
	f.String("listen", server.DefaultAddr, "host:port to listen on (a busy port is an error)")
	f.Bool("allow-remote", false, "allow a listen address other than loopback (the token is still required)")
	f.String("token-file", "", "bearer token file (default $XDG_STATE_HOME/assent/token; "+tokenEnv+" overrides the default)")
	f.Bool("no-bell", false, "console: do not ring the terminal bell when a call starts waiting")
	f.Bool("no-notify", false, "console: send no terminal notification (OSC 9 / OSC 777) when a call starts waiting")
	f.Duration("approval-timeout", 0, "console: deny a call no one answered within this time, e.g. 5m (default: wait as long as the client does)")
	f.String("log-file", "", "console: log file (default $XDG_STATE_HOME/assent/console.log)")
	f.String("console", "", "this console's name, which assent stdio --console NAME picks (default the first free of console, console-2, …)")
	f.Bool("no-socket", false, "serve HTTP only: no local socket, so `assent stdio` relays to another console, never to this one")
}

// runServe is the RunE of `assent` and `assent serve`: the console, or
// with --headless the server alone.
func runServe(cmd *cobra.Command, _ []string) error {
	o, err := serveOptionsFrom(cmd.Flags())
	if err != nil {
		return err
	}
	return o.run(cmd.Context(), cmd.OutOrStdout(), cmd.ErrOrStderr())
}

// serveOptionsFrom reads the flags addServeFlags declared.
func serveOptionsFrom(f *pflag.FlagSet) (serveOptions, error) {
	var o serveOptions
	var err error
	if o.app, err = appOptionsFrom(f); err != nil {
		return o, err
	}
	o.listen, _ = f.GetString("listen")
	o.allowRemote, _ = f.GetBool("allow-remote")
	o.tokenFile, _ = f.GetString("token-file")
	o.noBell, _ = f.GetBool("no-bell")
	o.noNotify, _ = f.GetBool("no-notify")
	o.app.approvalTimeout, _ = f.GetDuration("approval-timeout")
	o.logFile, _ = f.GetString("log-file")
	o.console, _ = f.GetString("console")
	o.noSocket, _ = f.GetBool("no-socket")
	if o.noSocket && o.console != "" {
		return o, errors.New("--console names the local socket, and --no-socket has none: give one of them")
	}
	if o.console != "" {
		if err := server.CheckConsoleName(o.console); err != nil {
			return o, fmt.Errorf("--console: %w", err)
		}
	}
	if o.app.approvalTimeout < 0 {
		return o, fmt.Errorf("--approval-timeout %s: must not be negative", o.app.approvalTimeout)
	}
	return o, nil
}

// run is the console, or with --headless the server alone.
func (o serveOptions) run(ctx context.Context, stdout, stderr io.Writer) error {
	if o.app.headless {
		return o.runHeadless(ctx, stdout, stderr)
	}
	return o.runConsole(ctx)
}

// runHeadless serves until a signal, with logs on stderr.
func (o serveOptions) runHeadless(ctx context.Context, stdout, stderr io.Writer) error {
	tok, tokenFrom, err := resolveToken(o.tokenFile)
	if err != nil {
		return err
	}
	s, err := o.start(tok, tokenFrom, stderr)
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "assent: serving MCP at %s (bearer token: %s)", s.http.URL(), tokenFrom)
	if relay := s.relayCommand(); relay != "" {
		fmt.Fprintf(stdout, "; relay with `%s`", relay)
	}
	fmt.Fprintln(stdout)
	stop := s.app.followHeadless(ctx)
	stopReplay := s.resubmit(ctx, o.replay, o.replayed)
	select {
	case <-ctx.Done():
		s.app.log.Info("shutting down")
	case <-s.ended:
		s.app.log.Error("the HTTP server stopped", "err", s.serveErr)
	}
	stopReplay()
	err = s.stop("assent is shutting down")
	stop()
	return err
}

// shutdownTimeout bounds the wait for HTTP requests to end at shutdown,
// after every call has been answered.
const shutdownTimeout = 5 * time.Second
