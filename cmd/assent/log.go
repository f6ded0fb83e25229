package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/assent-sh/assent/exec"
	"github.com/assent-sh/assent/journal"
)

// exitChainBroken is the exit status of `log --verify` on a journal whose
// chain does not hold, so scripts can tell tampering from a missing file.
const exitChainBroken = 2

// logOptions is one `assent log` invocation, read from its flags.
type logOptions struct {
	path     string
	json     bool
	verify   bool
	since    time.Time // zero: no lower bound
	tool     string    // glob; empty: any
	decision journal.Decision
}

func newLogCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "log",
		Short: "List journaled calls, or verify the journal's hash chain",
		Long: `List the calls in the journal: time, id, client, tool, decision, who decided,
exit status, duration and argv (quoted, with invisible characters escaped).

--verify walks the hash chain instead and names the first bad record.

Exit status: 0 on success; 1 when the journal cannot be read or a flag is
wrong; 2 when --verify finds the chain broken.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			o, err := logOptionsFrom(cmd.Flags(), time.Now())
			if err != nil {
				return err
			}
			return o.run(cmd.Context(), cmd.OutOrStdout(), cmd.ErrOrStderr())
		},
	}
	f := cmd.Flags()
	f.String("journal", "", "journal file (default $XDG_STATE_HOME/assent/journal.jsonl)")
	f.Bool("json", false, "print one JSON object per call (with --verify: the report)")
	f.Bool("verify", false, "walk the hash chain and name the first bad record")
	f.String("since", "", "only calls from this time on: a duration back from now (2h) or a time (2026-12-01, 2026-12-01T15:04:05)")
	f.String("tool", "", "only calls of tools matching this glob")
	f.String("decision", "", "only calls with this decision: allow, deny or ask")
	return cmd
}

// logOptionsFrom reads and checks the flags. now anchors --since durations.
func logOptionsFrom(f *pflag.FlagSet, now time.Time) (logOptions, error) {
	var (
		o               logOptions
		since, decision string
		errs            [6]error
	)
	o.path, errs[0] = f.GetString("journal")
	o.json, errs[1] = f.GetBool("json")
	o.verify, errs[2] = f.GetBool("verify")
	since, errs[3] = f.GetString("since")
	o.tool, errs[4] = f.GetString("tool")
	decision, errs[5] = f.GetString("decision")
	err := errors.Join(errs[:]...)
	if err != nil {
		return o, err
	}
	if o.path == "" {
		if o.path, err = journal.DefaultPath(); err != nil {
			return o, err
		}
	}
	if since != "" {
		if o.since, err = parseSince(since, now); err != nil {
			return o, err
		}
	}
	if _, err := path.Match(o.tool, ""); err != nil {
		return o, fmt.Errorf("--tool %q is not a valid glob", o.tool)
	}
	switch d := journal.Decision(decision); d {
	case "", journal.Allow, journal.Deny, journal.Ask:
		o.decision = d
	default:
		return o, fmt.Errorf("--decision %q is not allow, deny or ask", decision)
	}
	return o, nil
}

// parseSince reads --since: a duration back from now, or a local time.
func parseSince(s string, now time.Time) (time.Time, error) {
	if d, err := time.ParseDuration(s); err == nil && d >= 0 {
		return now.Add(-d), nil
	}
	for _, layout := range []string{time.RFC3339Nano, "2006-01-02T15:04:05", "2006-01-02 15:04:05", "2006-01-02"} {
		if t, err := time.ParseInLocation(layout, s, time.Local); err == nil {
			return t, nil
		}
	}
	return time.Time{}, fmt.Errorf("--since %q is neither a duration (2h) nor a time (2026-12-01, 2026-12-01T15:04:05)", s)
}

func (o logOptions) run(ctx context.Context, stdout, stderr io.Writer) error {
	if o.verify {
		return o.runVerify(stdout)
	}
	recs, readErr := journal.Read(o.path)
	if errors.Is(readErr, fs.ErrNotExist) {
		fmt.Fprintf(stderr, "no calls journaled yet: %s does not exist\n", o.path)
		return nil
	}
	// A bad line stops the read; the calls before it are still shown.
	var calls []journal.Call
	for _, c := range journal.Calls(recs) {
		if o.keep(c) {
			calls = append(calls, c)
		}
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	var err error
	if o.json {
		err = writeCallsJSON(stdout, calls)
	} else {
		err = writeCallTable(stdout, calls)
	}
	if readErr != nil {
		return fmt.Errorf("%w (assent log --verify says more)", readErr)
	}
	return err
}

// keep applies the filters.
func (o logOptions) keep(c journal.Call) bool {
	if !o.since.IsZero() && c.Time.Before(o.since) {
		return false
	}
	if o.tool != "" {
		if ok, _ := path.Match(o.tool, c.Tool); !ok {
			return false
		}
	}
	return o.decision == "" || c.Decision == o.decision
}

func (o logOptions) runVerify(stdout io.Writer) error {
	rep, err := journal.Verify(o.path)
	if err != nil {
		return err
	}
	if o.json {
		if err := json.NewEncoder(stdout).Encode(rep); err != nil {
			return err
		}
	} else if rep.Fault == nil {
		fmt.Fprintf(stdout, "%s: %d records, chain intact, head %s\n", o.path, rep.Records, rep.Head)
	}
	if rep.TornBytes > 0 && !o.json {
		fmt.Fprintf(stdout, "%s: %d bytes of an unfinished last line were not checked\n", o.path, rep.TornBytes)
	}
	if rep.Fault != nil {
		return &exitError{code: exitChainBroken,
			err: fmt.Errorf("journal %s does not verify: first bad %v", o.path, rep.Fault)}
	}
	return nil
}

func writeCallsJSON(w io.Writer, calls []journal.Call) error {
	enc := json.NewEncoder(w)
	for _, c := range calls {
		if err := enc.Encode(c); err != nil {
			return err
		}
	}
	return nil
}

// writeCallTable prints one row per call. argv comes last so a long command
// does not push the other columns off the screen.
func writeCallTable(w io.Writer, calls []journal.Call) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "TIME\tID\tCLIENT\tTOOL\tDECISION\tDECIDER\tEXIT\tDURATION\tARGV")
	for _, c := range calls {
		argv := make([]string, len(c.Argv))
		for i, a := range c.Argv {
			argv[i] = displayWord(a)
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n",
			c.Time.Local().Format("2006-01-02 15:04:05"), displayWord(c.ID), orDash(displayWord(c.Client)),
			orDash(displayWord(c.Tool)), orDash(string(c.Decision)), decider(c), outcome(c),
			duration(c), strings.Join(argv, " "))
	}
	return tw.Flush()
}

func decider(c journal.Call) string {
	if c.Decider == journal.ByRule && c.Rule != "" {
		return "rule " + displayWord(c.Rule)
	}
	return orDash(displayWord(string(c.Decider)))
}

// outcome is the EXIT column: the status when the call ran, else where its
// life stopped.
func outcome(c journal.Call) string {
	switch {
	case c.State == journal.Interrupted:
		return "interrupted"
	case c.Exit != nil && c.Signal != "":
		return strconv.Itoa(*c.Exit) + " " + displayWord(c.Signal)
	case c.Exit != nil:
		return strconv.Itoa(*c.Exit)
	case c.State == journal.Started:
		return "running"
	case c.Decision == journal.Deny:
		return "-"
	}
	return "pending"
}

func duration(c journal.Call) string {
	if c.Duration <= 0 {
		return "-"
	}
	return c.Duration.Round(time.Millisecond).String()
}

func orDash(s string) string {
	if s == "" || s == "''" {
		return "-"
	}
	return s
}

// displayWord shows one argv element (or any text from the journal) as the
// console does: quoted when it needs it, with control, bidi, zero-width and
// other invisible characters as escapes. Nothing an agent sent reaches the
// terminal raw.
func displayWord(s string) string { return exec.Quote(s) }
