package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/assent-sh/assent/journal"
	"github.com/assent-sh/assent/policy"
	"github.com/assent-sh/assent/state"
)

// exitChainBroken is the exit status of `log --verify` on a journal that
// does not hold, so scripts can tell tampering from a missing file.
const exitChainBroken = 2

// logOptions is one `assent log` invocation, read from its flags.
type logOptions struct {
	path      string
	defaulted bool // no --journal: the default location
	json      bool
	verify    bool
	head      bool
	follow    bool
	since     time.Time // zero: no lower bound
	tool      func(string) bool
	decision  journal.Decision
}

func newLogCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "log",
		Short: "List journaled calls, or verify the journal",
		Long: `List the calls in the journal, every process's, in the order they began: time, id,
client, tool, decision, who decided, how the call ended, exit status, duration, reason
and argv (quoted, with invisible characters escaped). The journal is read as a stream:
memory does not grow with its size. --follow keeps listing calls as they end.

--decision allow and deny match how a call was settled; ask matches every call the
policy asked about, whoever answered it (headless mode denies only such calls).
--tool takes a glob as rules do: * and ?, and \ before a literal.

--verify walks every chain, seal, file and head file of the journal and says what
does not hold, and what it can and cannot prove. --head prints each segment's head,
to keep somewhere the journal's writers cannot reach.

--journal also reads a single-file journal written by an older assent.

Exit status: 0 on success; 1 when the journal cannot be read or a flag is
wrong; 2 when --verify finds something that does not hold.`,
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
	f.String("journal", "", "journal directory or file (default $XDG_STATE_HOME/assent/journal)")
	f.Bool("json", false, "print one JSON object per call (with --verify: the report; with --head: the heads)")
	f.Bool("verify", false, "check every chain, seal, file and head file, and say what does not hold")
	f.Bool("head", false, "print the head of each segment, to keep elsewhere")
	f.Bool("follow", false, "keep listing calls as they end, until interrupted")
	f.String("since", "", "only calls from this time on: a duration back from now (2h) or a time (2026-12-01, 2026-12-01T15:04:05)")
	f.String("tool", "", "only calls of tools matching this glob")
	f.String("decision", "", "only calls allowed, denied, or asked about: allow, deny or ask")
	return cmd
}

// logOptionsFrom reads and checks the flags. now anchors --since durations.
func logOptionsFrom(f *pflag.FlagSet, now time.Time) (logOptions, error) {
	var (
		o                     logOptions
		since, tool, decision string
		errs                  [8]error
	)
	o.path, errs[0] = f.GetString("journal")
	o.json, errs[1] = f.GetBool("json")
	o.verify, errs[2] = f.GetBool("verify")
	o.head, errs[3] = f.GetBool("head")
	o.follow, errs[4] = f.GetBool("follow")
	since, errs[5] = f.GetString("since")
	tool, errs[6] = f.GetString("tool")
	decision, errs[7] = f.GetString("decision")
	err := errors.Join(errs[:]...)
	if err != nil {
		return o, err
	}
	if n := countTrue(o.verify, o.head, o.follow); n > 1 {
		return o, errors.New("--verify, --head and --follow each do something else: give one")
	}
	if o.path == "" {
		o.defaulted = true
		if o.path, err = state.JournalDir(); err != nil {
			return o, err
		}
	}
	if since != "" {
		if o.since, err = parseSince(since, now); err != nil {
			return o, err
		}
	}
	if tool != "" {
		if o.tool, err = toolGlob(tool); err != nil {
			return o, err
		}
	}
	switch d := journal.Decision(decision); d {
	case "", journal.Allow, journal.Deny, journal.Ask:
		o.decision = d
	default:
		return o, fmt.Errorf("--decision %q is not allow, deny or ask", decision)
	}
	return o, nil
}

func countTrue(bs ...bool) int {
	n := 0
	for _, b := range bs {
		if b {
			n++
		}
	}
	return n
}

// toolGlob reads --tool: a glob as rules write one (policy.GlobMatcher).
func toolGlob(s string) (func(string) bool, error) {
	match, err := policy.GlobMatcher(s)
	if err != nil {
		return nil, fmt.Errorf("--tool %q is not a valid glob: %w", s, err)
	}
	return match, nil
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
	switch {
	case o.verify:
		return o.runVerify(stdout)
	case o.head:
		return o.runHead(stdout)
	}
	calls, err := journal.NewCallReader(o.path, journal.CallOptions{Events: o.json, Since: o.since,
		ReadOptions: journal.ReadOptions{Follow: o.follow}})
	if errors.Is(err, fs.ErrNotExist) && o.defaulted && !o.follow {
		fmt.Fprintf(stderr, "no calls journaled yet: %s does not exist\n", o.path)
		return nil
	}
	if err != nil {
		return err
	}
	defer calls.Close()
	out := newCallWriter(stdout, o.json, o.follow)
	for {
		c, err := calls.Next(ctx)
		switch {
		case errors.Is(err, io.EOF):
			return out.flush()
		case err != nil && o.follow && ctx.Err() != nil:
			return out.flush() // interrupted, as --follow ends
		case err != nil:
			// The calls before a bad line are shown, then the error.
			return errors.Join(out.flush(), fmt.Errorf("%w (assent log --verify says more)", err))
		}
		if o.keep(c) {
			if err := out.write(c); err != nil {
				return err
			}
		}
	}
}

// keep applies the filters. --since was applied while reading.
func (o logOptions) keep(c journal.Call) bool {
	if o.tool != nil && !o.tool(c.Tool) {
		return false
	}
	switch o.decision {
	case "":
		return true
	case journal.Ask:
		return c.Policy == journal.Ask
	}
	return c.Decision == o.decision
}
