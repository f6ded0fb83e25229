package main

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

	"github.com/assent-sh/assent/exec"
	"github.com/assent-sh/assent/human"
	"github.com/assent-sh/assent/journal"
	"github.com/assent-sh/assent/policy"
	"github.com/assent-sh/assent/setup"
	"github.com/assent-sh/assent/state"
)

// rulesOptions are the files `assent rules` reads.
type rulesOptions struct {
	remembered string
	journal    string
}

func newRulesCmd() *cobra.Command {
	var o rulesOptions
	cmd := &cobra.Command{
		Use:   "rules",
		Short: "List the remembered \"always allow\" rules, or remove one",
		Long: `List the rules saved with "always allow" in the console: the file they are kept
in, each rule's id, when it was saved, when a call last ran by it (from the
journal) and the rule itself.

` + "`assent rules rm ID`" + ` removes one. A running console keeps deciding by the rules it
has until it reloads its files or restarts.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if err := o.defaults(); err != nil {
				return err
			}
			return o.list(cmd.OutOrStdout())
		},
	}
	cmd.PersistentFlags().StringVar(&o.remembered, "remembered", "", "remembered-rules file (default $XDG_STATE_HOME/assent/remembered.json)")
	cmd.Flags().StringVar(&o.journal, "journal", "", "journal to find when each rule last matched (default $XDG_STATE_HOME/assent/journal)")
	cmd.AddCommand(&cobra.Command{
		Use:   "rm ID",
		Short: "Remove one remembered rule",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := o.defaults(); err != nil {
				return err
			}
			mem, err := policy.NewMemory(setup.RememberedFile(o.remembered))
			if err != nil {
				return err
			}
			if err := mem.Forget(args[0]); err != nil {
				return err
			}
			fmt.Fprintf(cmd.OutOrStdout(), "removed %s from %s\n", args[0], o.remembered)
			return nil
		},
	})
	return cmd
}

// defaults fills in the files not named by flags.
func (o *rulesOptions) defaults() error {
	var err error
	if o.remembered == "" {
		if o.remembered, err = setup.DefaultRememberedFile(); err != nil {
			return err
		}
	}
	if o.journal == "" {
		o.journal, err = state.JournalDir()
	}
	return err
}

// list prints the remembered rules.
func (o *rulesOptions) list(w io.Writer) error {
	rules, err := setup.RememberedFile(o.remembered).Load()
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "%s: %s\n", o.remembered, human.Count(len(rules), "remembered rule"))
	if len(rules) == 0 {
		return nil
	}
	last, err := lastMatched(o.journal)
	if err != nil {
		return err
	}
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "ID\tSAVED\tLAST MATCHED\tRULE")
	for _, r := range rules {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", exec.Escape(r.Label()), when(r.Saved()), when(last[r.Label()]), exec.Escape(r.String()))
	}
	return tw.Flush()
}

// lastMatched reads the journal for when each rule last decided a call;
// a journal that does not exist yet has no matches.
func lastMatched(path string) (map[string]time.Time, error) {
	recs, err := journal.Read(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	last := map[string]time.Time{}
	for _, r := range recs {
		if r.Event == journal.Decided && r.Decider == journal.ByRule && r.Rule != "" && r.Time.After(last[r.Rule]) {
			last[r.Rule] = r.Time
		}
	}
	return last, nil
}

// when writes a time for the table, "-" for none.
func when(t time.Time) string {
	if t.IsZero() {
		return "-"
	}
	return t.Local().Format("2006-01-02 15:04")
}
