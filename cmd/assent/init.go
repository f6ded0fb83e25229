package main

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path/filepath"

	"github.com/spf13/cobra"

	"github.com/assent-sh/assent/examples"
	"github.com/assent-sh/assent/state"
)

func newInitCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "init",
		Short: "Write a commented starter configuration into assent's config directory",
		Long: `Write the starter configuration into $XDG_CONFIG_HOME/assent (~/.config/assent
when XDG_CONFIG_HOME is unset), which assent reads whenever --tools is not given:

  tools.json          the seed's simple form: [{"name", "description", "command"}]
  tools.d/default.md  the default tool pack, commented, as a Markdown tool file
  policy.json         one example rule

A file that is already there is never overwritten; init says which it kept.
Then run ` + "`assent`" + ` in a project directory: the tools' relative roots are the
directory assent runs in.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			dir, err := state.ConfigDir()
			if err != nil {
				return err
			}
			return runInit(cmd.OutOrStdout(), dir)
		},
	}
}

// runInit writes each starter file that does not exist yet into dir.
func runInit(w io.Writer, dir string) error {
	wrote := 0
	for _, f := range examples.Starter() {
		path := filepath.Join(dir, filepath.FromSlash(f.Name))
		err := state.CreateFile(path, f.Data, 0o644)
		switch {
		case errors.Is(err, fs.ErrExist):
			fmt.Fprintf(w, "kept    %s (it exists; nothing was overwritten)\n", path)
		case err != nil:
			return err
		default:
			wrote++
			fmt.Fprintf(w, "wrote   %s\n", path)
		}
	}
	if wrote > 0 {
		fmt.Fprintf(w, "\nassent reads these when --tools is not given. Check them with `assent check`,\nthen run `assent` in a project directory.\n")
	}
	return nil
}
