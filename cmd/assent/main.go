// Command assent is a terminal approval console for the commands an AI agent
// wants to run. See README.md.
package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/signal"
	"syscall"

	"github.com/spf13/cobra"

	"github.com/assent-sh/assent/exec"
)

func main() {
	// Before anything opens a descriptor: what assent inherited without
	// close-on-exec is not passed on to the programs it runs.
	if err := exec.SealInherited(); err != nil {
		fmt.Fprintln(os.Stderr, "assent: warning: inherited descriptors may reach the programs run:", err)
	}
	collectLessOften(os.Getenv)
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	err := newRootCmd().ExecuteContext(ctx)
	stop()
	if err != nil {
		var e *exitError
		if !errors.As(err, &e) || !e.quiet {
			fmt.Fprintln(os.Stderr, "assent:", err)
		}
		os.Exit(exitCode(err))
	}
}

// newRootCmd builds the command tree. Each subcommand lives in its own file
// and reads its flags inside RunE into an options value.
func newRootCmd() *cobra.Command {
	root := &cobra.Command{
		Use:           "assent",
		Short:         "A terminal approval console for the commands an AI agent wants to run",
		Long:          serveLong,
		Args:          cobra.NoArgs,
		RunE:          runServe,
		SilenceUsage:  true,
		SilenceErrors: true,
	}
	// assent alone is assent serve: the console.
	addServeFlags(root.Flags())
	root.Version = versionLine()
	root.SetVersionTemplate("assent {{.Version}}\n")
	root.AddCommand(
		newInitCmd(),
		newVersionCmd(),
		newRulesCmd(),
		newCheckCmd(),
		newExplainCmd(),
		newReplayCmd(),
		newLogCmd(),
		newServeCmd(),
		newStdioCmd(),
		newTokenCmd(),
	)
	registerCompletions(root)
	return root
}
