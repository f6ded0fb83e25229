package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/spf13/cobra"

	"github.com/assent-sh/assent/server"
)

// serveOptions is one `assent serve` invocation.
type serveOptions struct {
	app         appOptions
	listen      string
	allowRemote bool
	tokenFile   string
}

func newServeCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "serve --headless",
		Short: "Serve MCP over Streamable HTTP on 127.0.0.1:7323",
		Long: `Serve the tools over MCP (Streamable HTTP, at /mcp) on a fixed loopback port.
Every request needs the bearer token (` + "`assent token`" + ` prints it); requests with a
foreign Host or Origin are refused, and bodies are capped. The URL and the token
file's location are written to a 0600 runtime file
($XDG_RUNTIME_DIR/assent/server.json) for other local tools.

--headless runs without a console: rules decide every call, and a call that would
ask an operator is denied, with a reason the agent sees. (The console itself is
not part of this build yet, so --headless is required.)

Changes to the tool and policy files are logged; with --watch they are applied as
they are saved and clients are told the tool list changed.

SIGINT or SIGTERM shuts down: waiting calls are denied, running ones killed, the
journal closed. Exit status: 0 after a clean shutdown, 1 on any error.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			f := cmd.Flags()
			var o serveOptions
			var err error
			if o.app, err = appOptionsFrom(f); err != nil {
				return err
			}
			o.listen, _ = f.GetString("listen")
			o.allowRemote, _ = f.GetBool("allow-remote")
			o.tokenFile, _ = f.GetString("token-file")
			if !o.app.headless {
				return errors.New("the console is not part of this build yet: run `assent serve --headless` (rules decide every call)")
			}
			return o.run(cmd.Context(), cmd.OutOrStdout(), cmd.ErrOrStderr())
		},
	}
	f := cmd.Flags()
	addAppFlags(f)
	f.String("listen", server.DefaultAddr, "host:port to listen on (a busy port is an error)")
	f.Bool("allow-remote", false, "allow a listen address other than loopback (the token is still required)")
	f.String("token-file", "", "bearer token file (default $XDG_STATE_HOME/assent/token; "+tokenEnv+" overrides the default)")
	return cmd
}

func (o serveOptions) run(ctx context.Context, stdout, stderr io.Writer) error {
	tok, tokenFrom, err := resolveToken(o.tokenFile)
	if err != nil {
		return err
	}
	a, err := newApp(o.app, stderr)
	if err != nil {
		return err
	}
	h, err := a.server.ListenHTTP(server.HTTPOptions{Addr: o.listen, Token: tok, AllowRemote: o.allowRemote})
	if err != nil {
		return errors.Join(err, a.close("assent did not start"))
	}
	rt, err := writeRuntime(h.URL(), tokenFrom)
	if err != nil {
		a.log.Warn("runtime file not written; local tools will not find this server", "err", err)
	}
	fmt.Fprintf(stdout, "assent: serving MCP at %s (bearer token: %s)\n", h.URL(), tokenFrom)
	stop := a.followHeadless(ctx)
	served := make(chan error, 1)
	go func() { served <- h.Serve() }()
	var serveErr error
	select {
	case <-ctx.Done():
		a.log.Info("shutting down")
	case serveErr = <-served:
		a.log.Error("the HTTP server stopped", "err", serveErr)
		served = nil
	}
	// Calls end first, answered, so that no request holds the shutdown.
	cerr := a.close("assent is shutting down")
	sctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	herr := h.Shutdown(sctx)
	if served != nil {
		serveErr = <-served
	}
	stop()
	if rt != "" {
		if rerr := server.RemoveRuntime(rt, os.Getpid()); rerr != nil {
			a.log.Warn("runtime file not removed", "err", rerr)
		}
	}
	return errors.Join(serveErr, cerr, herr)
}

// writeRuntime writes the runtime file and returns its path.
func writeRuntime(url, tokenFrom string) (string, error) {
	dir, err := stateDir()
	if err != nil {
		return "", err
	}
	path := server.RuntimePath(os.Getenv("XDG_RUNTIME_DIR"), dir)
	rt := server.Runtime{URL: url, TokenFile: tokenFrom, PID: os.Getpid(), Started: time.Now().UTC()}
	if tokenFrom == "$"+tokenEnv {
		rt.TokenFile, rt.TokenEnv = "", tokenEnv
	}
	if err := server.WriteRuntime(path, rt); err != nil {
		return "", err
	}
	return path, nil
}
