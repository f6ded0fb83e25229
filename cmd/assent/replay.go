package main

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/assent-sh/assent/journal"
	"github.com/assent-sh/assent/replay"
)

// replayOptions is one `assent replay --dry-run` invocation.
type replayOptions struct {
	journal string
	tools   []string
	policy  policySources
	json    bool
}

func newReplayCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "replay JOURNAL [--dry-run]",
		Short: "Submit journaled calls again, or report what today's policy would decide for each",
		Long: `Submit the calls of a journal again, in order, into the console (or, with
--headless, to the rules alone), with the same flags as ` + "`assent`" + `. Each is a new
call: it goes through today's tool files, argument checks and policy, and waits
for the operator when policy asks. Nothing recorded as approved, denied or
interrupted is ever run on the strength of the record. Calls whose tool is gone,
or whose secret arguments the journal masked, are skipped (and logged).

--dry-run runs nothing: it puts each call through today's tools, checks and
policy and prints what was decided then, what would be decided now, and where
they differ (a tool gone, arguments now refused, a different argv, a different
decision).

Exit status with --dry-run: 0 when every call would be decided as it was, 3 when
any differs, 1 on errors. Otherwise as ` + "`assent`" + `.`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			f := cmd.Flags()
			so, err := serveOptionsFrom(f)
			if err != nil {
				return err
			}
			if dry, _ := f.GetBool("dry-run"); dry {
				o := replayOptions{journal: args[0], tools: so.app.tools, policy: so.app.policy}
				o.json, _ = f.GetBool("json")
				return o.run(cmd.OutOrStdout())
			}
			recs, err := journal.Read(args[0])
			if err != nil {
				return err
			}
			so.replay = journal.Calls(recs)
			return so.run(cmd.Context(), cmd.OutOrStdout(), cmd.ErrOrStderr())
		},
	}
	f := cmd.Flags()
	addServeFlags(f)
	f.Bool("dry-run", false, "decide each call with today's config and policy, run nothing")
	f.Bool("json", false, "with --dry-run: print one JSON object per call")
	return cmd
}

func (o replayOptions) run(w io.Writer) error {
	loaded, err := o.policy.loadToDecide(o.tools)
	if err != nil {
		return err
	}
	recs, err := journal.Read(o.journal)
	if err != nil {
		return err
	}
	var out []replay.Verdict
	differ := false
	for _, c := range journal.Calls(recs) {
		r := replay.Check(loaded.Config, loaded.Policy, c)
		differ = differ || len(r.Differs) > 0
		out = append(out, r)
	}
	if o.json {
		enc := json.NewEncoder(w)
		for _, r := range out {
			if err := enc.Encode(r); err != nil {
				return err
			}
		}
	} else {
		tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
		fmt.Fprintln(tw, "CALL\tTOOL\tTHEN\tNOW\tDIFFERS")
		for _, r := range out {
			now := r.Now
			if r.Rule != "" {
				now += " (rule " + r.Rule + ")"
			}
			fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", displayWord(r.Call), displayWord(r.Tool), r.Then, displayWord(now),
				orDash(strings.Join(r.Differs, "; ")))
		}
		if err := tw.Flush(); err != nil {
			return err
		}
	}
	if differ {
		return &exitError{code: 3, err: fmt.Errorf("some calls would be decided differently today"), quiet: true}
	}
	return nil
}
