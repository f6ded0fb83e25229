package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"sync"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

	"github.com/assent-sh/assent/exec"
	"github.com/assent-sh/assent/journal"
	"github.com/assent-sh/assent/replay"
)

// replayOptions is one `assent replay` invocation.
type replayOptions struct {
	journal string
	serve   serveOptions
	filter  replay.Filter
	dry     bool
	json    bool
}

const replayLong = `Submit the calls of a journal again, in order, into the console (or, with
--headless, to the rules alone), with the same flags as ` + "`assent`" + `. Each is a new
call: it goes through today's tool files, argument checks and policy, and waits
for the operator when policy asks. Nothing recorded as approved, denied or
interrupted is ever run on the strength of the record. Calls whose tool is gone,
or whose secret arguments the journal masked, are skipped. Replayed calls are
marked as replays in the console and, in the journal, name the call they replay.

For each call replay then prints "same", or how it differs from the record: how
it ended, its exit code, and a unified diff of each output stream against the
stored copy (or, when the journal kept only the beginning of a stream, that it
differs by its hash). The console prints the comparison when it exits;
--headless runs the calls without serving anything and exits when done.

--dry-run runs nothing: it puts each call through today's tools, checks and
policy and prints what was decided then, what would be decided now, and where
they differ: a tool gone, arguments now refused, a different argv (for an edited
call, the one the agent asked for), a different decision — a call the operator
denied that a rule now allows, and the reverse. Run it with a new --policy
before putting those rules in force.

--tool, --since and --call choose which calls. Exit status: 0 when every call
chosen came out (or would be decided) as recorded, 3 when any differs or was
skipped, 1 on errors.`

func newReplayCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "replay JOURNAL [--dry-run] [--headless]",
		Short: "Submit journaled calls again and compare, or report what today's policy would decide for each",
		Long:  replayLong,
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			o, err := replayOptionsFrom(cmd, args[0])
			if err != nil {
				return err
			}
			return o.run(cmd.Context(), cmd.OutOrStdout(), cmd.ErrOrStderr())
		},
	}
	f := cmd.Flags()
	addServeFlags(f)
	f.Bool("dry-run", false, "decide each call with today's config and policy, run nothing")
	f.Bool("json", false, "print one JSON object per call")
	f.String("tool", "", "only calls of tools matching this glob")
	f.String("since", "", "only calls received since this time (2026-12-01, 2026-12-01T15:04:05) or in the last duration (2h)")
	f.String("call", "", "only the call with this journal id")
	return cmd
}

func replayOptionsFrom(cmd *cobra.Command, journalPath string) (replayOptions, error) {
	f := cmd.Flags()
	o := replayOptions{journal: journalPath}
	var err error
	if o.serve, err = serveOptionsFrom(f); err != nil {
		return o, err
	}
	o.dry, _ = f.GetBool("dry-run")
	o.json, _ = f.GetBool("json")
	o.filter.Call, _ = f.GetString("call")
	if tool, _ := f.GetString("tool"); tool != "" {
		if o.filter.Tool, err = toolGlob(tool); err != nil {
			return o, err
		}
	}
	if since, _ := f.GetString("since"); since != "" {
		if o.filter.Since, err = parseSince(since, time.Now()); err != nil {
			return o, err
		}
	}
	return o, nil
}

func (o replayOptions) run(ctx context.Context, stdout, stderr io.Writer) error {
	calls, err := replay.Read(ctx, o.journal, o.filter)
	if err != nil {
		return err
	}
	r := &replayReport{w: stdout, json: o.json}
	switch {
	case o.dry:
		err = o.dryRun(calls, r)
	case o.serve.app.headless:
		err = o.runHeadless(ctx, calls, r, stderr)
	default:
		// The console owns the terminal while it runs: the comparison is
		// printed once it has exited.
		o.serve.replay, o.serve.replayed = calls, r.keep
		err = o.serve.run(ctx, stdout, stderr)
		r.flush()
	}
	if err != nil {
		return err
	}
	return r.status(o.dry)
}

// dryRun decides each call with today's tools and policy.
func (o replayOptions) dryRun(calls []journal.Call, r *replayReport) error {
	loaded, err := o.serve.app.policy.loadToDecide(o.serve.app.tools)
	if err != nil {
		return err
	}
	verdicts := make([]replay.Verdict, 0, len(calls))
	for _, c := range calls {
		verdicts = append(verdicts, replay.Check(loaded.Config, loaded.Policy, c))
	}
	return r.verdicts(verdicts)
}

// runHeadless replays the calls to the rules alone, serving nothing, and
// returns once every call has ended (or a signal came).
func (o replayOptions) runHeadless(ctx context.Context, calls []journal.Call, r *replayReport, stderr io.Writer) error {
	a, err := newApp(o.serve.app, stderr)
	if err != nil {
		return err
	}
	replay.Submit(ctx, a.queue, a.server.Config().Tool, calls, a.log, r.compared)
	return a.close("the replay is done")
}

// replayReport prints each call's comparison (or dry-run verdict) and
// counts the ones that differ.
type replayReport struct {
	w      io.Writer
	json   bool
	mu     sync.Mutex
	kept   []replay.Comparison // held while the console owns the terminal
	differ int
}

func (r *replayReport) compared(c replay.Comparison) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if !c.Same() {
		r.differ++
	}
	if r.json {
		printJSON(r.w, c)
		return
	}
	switch {
	case c.Skipped != "":
		fmt.Fprintf(r.w, "%s  %s  skipped: %s\n", displayWord(c.Call), displayWord(c.Tool), exec.Escape(c.Skipped))
	case c.Same():
		fmt.Fprintf(r.w, "%s  %s  same (replayed as %s)\n", displayWord(c.Call), displayWord(c.Tool), c.Replay)
	default:
		fmt.Fprintf(r.w, "%s  %s  differs (replayed as %s)\n", displayWord(c.Call), displayWord(c.Tool), c.Replay)
		for _, d := range c.Differs {
			for _, line := range strings.Split(d, "\n") {
				// A line of a diff is shown as the console shows text:
				// invisible and control characters as escapes.
				fmt.Fprintf(r.w, "    %s\n", exec.Escape(line))
			}
		}
	}
}

// keep holds a comparison until flush.
func (r *replayReport) keep(c replay.Comparison) {
	r.mu.Lock()
	r.kept = append(r.kept, c)
	r.mu.Unlock()
}

// flush prints what keep held.
func (r *replayReport) flush() {
	r.mu.Lock()
	kept := r.kept
	r.kept = nil
	r.mu.Unlock()
	for _, c := range kept {
		r.compared(c)
	}
}

// verdicts prints the dry run's table (or JSON lines).
func (r *replayReport) verdicts(vs []replay.Verdict) error {
	tw := tabwriter.NewWriter(r.w, 0, 4, 2, ' ', 0)
	if !r.json {
		fmt.Fprintln(tw, "CALL\tTOOL\tTHEN\tNOW\tDIFFERS")
	}
	for _, v := range vs {
		if len(v.Differs) > 0 {
			r.differ++
		}
		if r.json {
			printJSON(r.w, v)
			continue
		}
		// THEN, NOW and DIFFERS are phrases, not argv words: quoting one
		// whole would make it read as a single word. What in them came
		// from the journal or the policy is escaped instead.
		now := exec.Escape(v.Now)
		if v.Rule != "" {
			now += " (rule " + ruleName(v.Rule) + ")"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", displayWord(v.Call), displayWord(v.Tool), exec.Escape(v.Then), now,
			orDash(exec.Escape(strings.Join(v.Differs, "; "))))
	}
	return tw.Flush()
}

// printJSON writes v as one line of JSON.
func printJSON(w io.Writer, v any) {
	_ = json.NewEncoder(w).Encode(v)
}

// status is the exit status the report calls for.
func (r *replayReport) status(dry bool) error {
	if r.differ == 0 {
		return nil
	}
	what := "some calls came out differently"
	if dry {
		what = "some calls would be decided differently today"
	}
	return &exitError{code: 3, err: fmt.Errorf("%s (%d)", what, r.differ), quiet: true}
}
