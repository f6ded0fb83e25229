package main

import (
	"context"
	"errors"
	"fmt"
	"log"
	"os"
	"path/filepath"
	"sync"

	tea "charm.land/bubbletea/v2"

	"github.com/assent-sh/assent/exec"
	"github.com/assent-sh/assent/server"
	"github.com/assent-sh/assent/state"
	"github.com/assent-sh/assent/ui"
)

// runConsole serves over HTTP and shows the console in this terminal until
// the operator quits or a signal ends ctx.
//
// The console owns the terminal, so nothing else may write to it: logs go
// to a file, children run in sessions of their own (no controlling
// terminal, stdin /dev/null), and only errors from before the console
// starts, or from after it has restored the terminal, reach stderr.
func (o serveOptions) runConsole(ctx context.Context) error {
	tok, tokenFrom, err := resolveToken(o.tokenFile)
	if err != nil {
		return err
	}
	tty, err := openTerminal()
	if err != nil {
		return err
	}
	defer tty.Close()
	logf, err := openConsoleLog(o.logFile)
	if err != nil {
		return err
	}
	defer logf.Close()
	// mcp-go reports a panicking hook through the standard logger; the
	// screen is not the place for it.
	prev := log.Writer()
	log.SetOutput(logf)
	defer log.SetOutput(prev)

	o.app.ownTerminal = true
	s, err := o.start(tok, tokenFrom, logf)
	if err != nil {
		return err
	}
	s.app.log.Info("console started", "url", s.http.URL(), "token", tokenFrom, "console", s.consoleName())

	// The console ends with a signal (ctx) or when HTTP stops serving.
	uictx, cancel := context.WithCancel(ctx)
	var wg sync.WaitGroup
	wg.Go(func() {
		select {
		case <-s.ended:
			s.app.log.Error("the HTTP server stopped", "err", s.serveErr)
			cancel()
		case <-uictx.Done():
		}
	})
	changes, stopChanges := s.app.consoleChanges(uictx)
	stopReplay := s.resubmit(uictx, o.replay, o.replayed)
	support := s.app.runner.Probe()
	uierr := ui.Run(uictx, ui.Options{Queue: s.app.queue, Endpoint: s.http.URL(), Token: tok,
		Changes: changes, NoBell: o.noBell, NoNotify: o.noNotify, TokenFile: tokenFileShown(tokenFrom),
		RememberedFile: s.app.queue.RememberedFile(), Console: namedConsole(s.consoleName()),
		Confinement: support.String(), Unconfined: support.Landlock == 0 || support.Mode == exec.SandboxOff},
		tea.WithInput(tty), tea.WithOutput(tty), tea.WithoutSignalHandler())
	cancel()
	wg.Wait()
	stopReplay()
	stopChanges()

	// Quitting has already closed the queue with "console closed"; this
	// answers what a signal or an HTTP failure left waiting.
	s.app.log.Info("console ended", "signal", ctx.Err() != nil)
	return errors.Join(uierr, s.stop("assent is shutting down"))
}

// openTerminal opens the process's terminal, which the console reads and
// draws on even when stdin or stdout is redirected. Without one the console
// cannot run, and that is said before anything listens.
func openTerminal() (*os.File, error) {
	in, _, err := tea.OpenTTY() // one file, open for reading and writing
	if err != nil {
		return nil, fmt.Errorf("the console needs a terminal (%w); to serve without one, run `assent serve --headless`", err)
	}
	return in, nil
}

// openConsoleLog opens the console's log file for appending: file, or
// console.log in the state directory.
func openConsoleLog(file string) (*os.File, error) {
	if file == "" {
		dir, err := state.Dir()
		if err != nil {
			return nil, err
		}
		if err := os.MkdirAll(dir, 0o700); err != nil {
			return nil, fmt.Errorf("state directory: %w", err)
		}
		file = filepath.Join(dir, "console.log")
	}
	f, err := os.OpenFile(file, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o600)
	if err != nil {
		return nil, fmt.Errorf("console log: %w", err)
	}
	return f, nil
}

// tokenFileShown is the token's file for the connect dialog, or "" when
// the token came from the environment.
func tokenFileShown(from string) string {
	if from == "$"+tokenEnv {
		return ""
	}
	return from
}

// namedConsole is the console's name when a relay must name it to reach it:
// "" for the default name.
func namedConsole(name string) string {
	if name == server.DefaultConsoleName {
		return ""
	}
	return name
}
