package main

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"os"
	"time"

	"github.com/spf13/pflag"

	"github.com/assent-sh/assent/config"
	"github.com/assent-sh/assent/exec"
	"github.com/assent-sh/assent/journal"
	"github.com/assent-sh/assent/queue"
	"github.com/assent-sh/assent/server"
	"github.com/assent-sh/assent/setup"
	"github.com/assent-sh/assent/state"
)

// appOptions are the flags serve and stdio share: what to load, where to
// journal, and how the queue behaves.
type appOptions struct {
	tools       []string
	policy      policySources
	journal     string
	journalSync string
	journalMax  string // --journal-max-size
	headless    bool
	watch       bool
	maxRunning  int
	maxPending  int
	// approvalTimeout denies a call nobody answered in time (the console's
	// --approval-timeout); zero waits as long as the client does.
	approvalTimeout time.Duration
	// ownTerminal says the process owns a terminal (the console), so every
	// child starts in a session of its own and cannot reach it.
	ownTerminal bool
	// protected are more of assent's files no tool may write, besides
	// the journal (the token file, when one is used).
	protected []config.ProtectedFile
}

// addAppFlags declares the shared flags.
func addAppFlags(f *pflag.FlagSet) {
	f.StringArray("tools", nil, "tool file (repeatable; default the files in $XDG_CONFIG_HOME/assent, else the embedded pack)")
	addPolicyFlags(f)
	f.String("journal", "", "journal directory, shared by every assent process (default $XDG_STATE_HOME/assent/journal)")
	f.String("journal-sync", string(journal.SyncGroup), "when records reach the disk: group (batched fsync) or always (one per record)")
	f.String("journal-max-size", "256MiB", "size at which a journal file rolls to the next: bytes, or a number with KiB, MiB or GiB")
	f.Bool("headless", false, "no console: rules decide, and a call that would ask an operator is denied")
	f.Bool("watch", false, "headless: apply changes to the tool and policy files as they are saved (they are logged either way)")
	f.Int("max-running", queue.DefaultMaxRunning, "most calls running at once; more are refused with a retryable error")
	f.Int("max-pending", queue.DefaultMaxPending, "most calls waiting for an operator at once")
}

// appOptionsFrom reads the shared flags.
func appOptionsFrom(f *pflag.FlagSet) (appOptions, error) {
	var o appOptions
	var errs [9]error
	o.tools, errs[0] = f.GetStringArray("tools")
	o.policy, errs[1] = policySourcesFrom(f)
	o.journal, errs[2] = f.GetString("journal")
	o.journalSync, errs[3] = f.GetString("journal-sync")
	o.headless, errs[4] = f.GetBool("headless")
	o.watch, errs[5] = f.GetBool("watch")
	o.maxRunning, errs[6] = f.GetInt("max-running")
	o.maxPending, errs[7] = f.GetInt("max-pending")
	o.journalMax, errs[8] = f.GetString("journal-max-size")
	return o, errors.Join(errs[:]...)
}

// runnerMaxTimeout is the runner's backstop ceiling on any timeout.
const runnerMaxTimeout = 24 * time.Hour

// app is assent assembled: tools and policy loaded and checked, the
// journal open, the queue and the MCP server built on them. serve and
// stdio build one and add a transport, and the console shows its queue.
type app struct {
	opts     appOptions
	log      *slog.Logger
	loader   *setup.Loader
	reloader *setup.Reloader
	runner   *exec.Local
	journal  *journal.Journal
	queue    *queue.Queue
	server   *server.Server
	// probed is closed once the runner's probe of the sandbox is logged.
	probed chan struct{}
}

// newApp loads everything and opens the journal. Every problem found at
// load is an error naming its file.
func newApp(o appOptions, stderr io.Writer) (*app, error) {
	restoreGC := holdGC()
	defer time.AfterFunc(gcHeldAfterSetup, restoreGC)
	a := &app{opts: o, log: slog.New(slog.NewTextHandler(stderr, nil))}
	sync, err := journal.ParseSyncMode(o.journalSync)
	if err != nil {
		return nil, err
	}
	maxSize, err := journal.ParseSize(o.journalMax)
	if err != nil {
		return nil, err
	}
	if a.opts.journal == "" {
		if a.opts.journal, err = state.JournalDir(); err != nil {
			return nil, err
		}
	}
	a.loader, err = setup.NewLoader(setup.Options{Tools: o.tools, PolicyFile: o.policy.file,
		Remembered: o.policy.remembered,
		Protected:  append([]config.ProtectedFile{{What: "journal", Path: a.opts.journal}}, o.protected...)})
	if err != nil {
		return nil, err
	}
	loaded, err := a.loader.Load()
	if err != nil {
		return nil, err
	}
	for _, w := range loaded.Config.Warnings {
		a.log.Warn("tool file", "warning", w.String())
	}
	mode, err := exec.ParseSandboxMode(string(loaded.Config.Settings.SandboxOrDefault()))
	if err != nil {
		return nil, err
	}
	// The journal opens only once the files are accepted: the check that
	// no tool can write it is among what loading them refuses, and opening
	// writes its key and recovers its other segments.
	if a.journal, err = journal.Open(a.opts.journal, journal.Options{Sync: sync, MaxSize: maxSize}); err != nil {
		return nil, err
	}
	if rec := a.journal.Recovery(); !rec.Clean() {
		a.log.Warn("the journal needed recovery", "journal", a.opts.journal, "found", rec.String())
	}
	// Every command carries its tool's timeout and output cap, checked by
	// config against the settings, also after a reload that raises them;
	// the runner's ceiling is only a backstop.
	// The sandbox mode is the runner's, taken at start: a reload that
	// changes settings.sandbox takes effect when assent restarts.
	runner := exec.NewLocal(exec.Options{MaxTimeout: runnerMaxTimeout, NewSession: o.ownTerminal, Sandbox: mode})
	a.runner = runner
	// The probe starts a child to see what the kernel confines; it runs
	// while the queue and the server are built and the client is served
	// (a sandboxed call waits for it in the runner), and close waits for
	// its line in the log.
	a.probed = make(chan struct{})
	go func() {
		defer close(a.probed)
		support := runner.Probe()
		a.log.Info("calls run "+support.String(), "sandbox", string(support.Mode))
	}()
	a.queue, err = queue.New(queue.Options{Policy: loaded.Policy, Runner: runner, Journal: a.journal,
		Headless: o.headless, ApprovalTimeout: o.approvalTimeout, MaxRunning: o.maxRunning, MaxPending: o.maxPending,
		PATH: os.Getenv("PATH"), RunID: a.journal.Segment()})
	if err == nil {
		a.server, err = server.New(loaded.Config, server.Options{Queue: a.queue, Version: buildVersion(), Logger: a.log})
	}
	if err != nil {
		<-a.probed // the probe uses the runner
		return nil, errors.Join(err, a.journal.Close(), runner.Close())
	}
	// A change is put in force policy first, so that a rule added together
	// with a tool is in force before the tool can be called.
	a.reloader = setup.NewReloader(a.loader, loaded, func(next setup.Loaded) {
		a.queue.SetPolicy(next.Policy)
		a.server.SetTools(next.Config)
	})
	return a, nil
}

// close ends every call (pending ones denied with reason, running ones
// killed) and then closes the journal.
func (a *app) close(reason string) error {
	ctx, cancel := context.WithTimeout(context.Background(), 15*time.Second)
	defer cancel()
	qerr := a.queue.Close(ctx, reason)
	<-a.probed
	return errors.Join(qerr, a.journal.Close(), a.runner.Close())
}
