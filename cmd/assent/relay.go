package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"os"
	"strings"
	"syscall"

	"github.com/assent-sh/assent/server"
)

// runRelay carries an agent's stdio MCP session to the console running in a
// terminal, found through its runtime file.
func runRelay(ctx context.Context, stdin io.Reader, stdout, stderr io.Writer) error {
	path, err := server.RuntimePath()
	if err != nil {
		return err
	}
	rt, err := server.ReadRuntime(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return fmt.Errorf("no console is running (no %s): start `assent` in a terminal first, or serve here with `assent stdio --headless`", path)
	case err != nil:
		return err
	case rt.PID > 0 && processGone(rt.PID):
		return fmt.Errorf("the console that wrote %s (pid %d) is gone: start `assent` in a terminal first, or serve here with `assent stdio --headless`", path, rt.PID)
	}
	tok, err := relayToken(rt)
	if err != nil {
		return err
	}
	log := slog.New(slog.NewTextHandler(stderr, nil))
	log.Info("relaying to the console", "url", rt.URL)
	return server.Relay(ctx, server.RelayOptions{URL: rt.URL, Token: tok, Logger: log}, stdin, stdout)
}

// relayToken reads the console's token from where its runtime file says.
func relayToken(rt server.Runtime) (string, error) {
	if rt.TokenEnv != "" {
		tok := os.Getenv(rt.TokenEnv)
		if tok == "" {
			return "", fmt.Errorf("the console took its token from $%s, which is not set here", rt.TokenEnv)
		}
		return tok, nil
	}
	data, err := os.ReadFile(rt.TokenFile)
	if err != nil {
		return "", fmt.Errorf("the console's token: %w", err)
	}
	tok := strings.TrimSpace(string(data))
	if err := server.CheckToken(tok); err != nil {
		return "", fmt.Errorf("the console's token in %s: %w", rt.TokenFile, err)
	}
	return tok, nil
}

// processGone reports whether no process has the pid: signal 0 checks
// without sending anything.
func processGone(pid int) bool {
	p, err := os.FindProcess(pid)
	if err != nil {
		return true
	}
	err = p.Signal(syscall.Signal(0))
	return errors.Is(err, os.ErrProcessDone) || errors.Is(err, syscall.ESRCH)
}
