package main

import (
	"strings"

	"github.com/spf13/cobra"

	"github.com/assent-sh/assent/journal"
)

// Shell completion (`assent completion bash|zsh|fish|powershell`) offers
// values where a flag or argument has a known set of them.

// completeToolNames completes `assent explain`'s first argument with the
// names of the tools the flags load, and its later ones with the chosen
// tool's parameters as "name=".
func completeToolNames(cmd *cobra.Command, args []string, toComplete string) ([]string, cobra.ShellCompDirective) {
	tools, _ := cmd.Flags().GetStringArray("tools")
	src, err := policySourcesFrom(cmd.Flags())
	if err != nil {
		return nil, cobra.ShellCompDirectiveError
	}
	loaded, err := src.loadToDecide(tools)
	if err != nil {
		return nil, cobra.ShellCompDirectiveError
	}
	var out []string
	if len(args) == 0 {
		for _, t := range loaded.Config.Tools {
			if strings.HasPrefix(t.Name, toComplete) {
				out = append(out, t.Name+"\t"+summary(t.Description))
			}
		}
		return out, cobra.ShellCompDirectiveNoFileComp
	}
	if t := loaded.Config.Tool(args[0]); t != nil {
		for _, p := range t.Params {
			if strings.HasPrefix(p.Name+"=", toComplete) {
				out = append(out, p.Name+"=")
			}
		}
	}
	return out, cobra.ShellCompDirectiveNoFileComp | cobra.ShellCompDirectiveNoSpace
}

// completeSyncModes completes --journal-sync.
func completeSyncModes(*cobra.Command, []string, string) ([]string, cobra.ShellCompDirective) {
	return []string{string(journal.SyncGroup) + "\tone fsync for many records", string(journal.SyncAlways) + "\tone fsync per record"},
		cobra.ShellCompDirectiveNoFileComp
}

// summary is the first line of a description, for a completion's hint.
func summary(s string) string {
	line, _, _ := strings.Cut(s, "\n")
	return line
}

// registerCompletions gives every command in the tree the value
// completions of the flags it has.
func registerCompletions(c *cobra.Command) {
	values := map[string]cobra.CompletionFunc{
		"journal-sync": completeSyncModes,
		"decision":     completeDecisions,
	}
	for name, fn := range values {
		if c.Flags().Lookup(name) != nil {
			_ = c.RegisterFlagCompletionFunc(name, fn)
		}
	}
	for _, sub := range c.Commands() {
		registerCompletions(sub)
	}
}

// completeDecisions completes `assent log --decision`.
func completeDecisions(*cobra.Command, []string, string) ([]string, cobra.ShellCompDirective) {
	return []string{string(journal.Allow), string(journal.Ask), string(journal.Deny)}, cobra.ShellCompDirectiveNoFileComp
}
