package main

import (
	"context"
	"errors"
	"path/filepath"

	"github.com/mark3labs/mcp-go/client"

	"github.com/assent-sh/assent/config"
	"github.com/assent-sh/assent/exec"
	"github.com/assent-sh/assent/journal"
	"github.com/assent-sh/assent/queue"
	"github.com/assent-sh/assent/server"
	"github.com/assent-sh/assent/setup"
)

// inProcess assembles assent in this process, as `assent serve` does,
// and calls it through mcp-go's in-process client: the cost of the queue,
// policy, journal and MCP handling without a transport.
func (s *rig) inProcess(c int) (target, error) {
	l, err := setup.NewLoader(setup.Options{Sources: []config.Source{{Name: s.tools, Data: []byte(toolsFile)}},
		Remembered: filepath.Join(s.dir, "remembered.json"), WorkDir: s.dir})
	if err != nil {
		return target{}, err
	}
	loaded, err := l.Load()
	if err != nil {
		return target{}, err
	}
	cfg, pol := loaded.Config, loaded.Policy
	j, err := journal.Open(s.journal("inprocess"), journal.Options{})
	if err != nil {
		return target{}, err
	}
	q, err := queue.New(queue.Options{Policy: pol, Runner: exec.NewLocal(exec.Options{}), Journal: j,
		Headless: true, MaxRunning: max(c, queue.DefaultMaxRunning)})
	if err != nil {
		return target{}, errors.Join(err, j.Close())
	}
	closeAll := func() error {
		return errors.Join(q.Close(context.Background(), "load driver done"), j.Close())
	}
	srv, err := server.New(cfg, server.Options{Queue: q})
	if err != nil {
		return target{}, errors.Join(err, closeAll())
	}
	cl, err := client.NewInProcessClientWithOptions(srv.MCP(), s.clientOpts...)
	if err != nil {
		return target{}, errors.Join(err, closeAll())
	}
	if err := initialize(context.Background(), cl); err != nil {
		return target{}, errors.Join(err, closeAll())
	}
	return mcpTarget("inprocess", cl, func() error { return errors.Join(cl.Close(), closeAll()) }), nil
}
