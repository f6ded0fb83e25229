package main

import (
	"context"
	"io"
	"log/slog"

	"github.com/assent-sh/assent/server"
)

// runtimeDirForTests replaces the per-user runtime directory in a binary
// built by the tests (go build -ldflags "-X main.runtimeDirForTests=DIR"),
// so that they never meet a console a person is running. The released
// binary leaves it empty: no environment variable or flag moves the
// directory, so a console and a relay always find each other.
var runtimeDirForTests string

// runRelay carries an agent's stdio MCP session to the console running in
// a terminal (the one named console, or the only one), over its local
// socket.
func runRelay(ctx context.Context, console string, stdin io.Reader, stdout, stderr io.Writer) error {
	log := slog.New(slog.NewTextHandler(stderr, nil))
	return server.Relay(ctx, server.RelayOptions{Dir: runtimeDirForTests, Console: console, Logger: log}, stdin, stdout)
}
