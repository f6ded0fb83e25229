package main

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/spf13/cobra"

	"github.com/assent-sh/assent/server"
	"github.com/assent-sh/assent/state"
)

// tokenEnv is the environment variable that overrides the token file, for
// scripts.
const tokenEnv = "ASSENT_TOKEN"

func newTokenCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "token",
		Short: "Print the bearer token MCP clients need for `assent serve`, or replace it",
		Long: `Print the bearer token that every HTTP request to assent must carry
("Authorization: Bearer <token>"). It is generated on first use (256 random bits)
and kept in a 0600 file under the state directory, so saved client configurations
keep working across restarts.

--rotate replaces it with a new one; clients holding the old token are refused
once the server restarts. --token-file uses another file; ASSENT_TOKEN, when
set, is the token and no file is used.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			f := cmd.Flags()
			file, _ := f.GetString("token-file")
			rotate, _ := f.GetBool("rotate")
			return runToken(cmd.OutOrStdout(), file, rotate)
		},
	}
	cmd.Flags().String("token-file", "", "token file (default $XDG_STATE_HOME/assent/token)")
	cmd.Flags().Bool("rotate", false, "replace the token with a new one")
	return cmd
}

func runToken(w io.Writer, file string, rotate bool) error {
	if rotate {
		if file == "" && os.Getenv(tokenEnv) != "" {
			return errors.New(tokenEnv + " is set, so no token file is in use; unset it, or name the file with --token-file")
		}
		path, err := tokenPath(file)
		if err != nil {
			return err
		}
		if file != "" {
			if _, err := os.Stat(filepath.Dir(path)); err != nil {
				return fmt.Errorf("--token-file %s: its directory: %w", file, unwrapPath(err))
			}
		}
		tok, err := server.RotateToken(path)
		if err != nil {
			return err
		}
		fmt.Fprintln(w, tok)
		return nil
	}
	tok, _, err := resolveToken(file)
	if err != nil {
		return err
	}
	fmt.Fprintln(w, tok)
	return nil
}

// resolveToken returns the token and where it came from: the --token-file
// when given, else $ASSENT_TOKEN when set, else the default token file
// (created on first use). from is the file, or "$ASSENT_TOKEN".
func resolveToken(file string) (tok, from string, err error) {
	if file == "" {
		if env := os.Getenv(tokenEnv); env != "" {
			if err := server.CheckToken(env); err != nil {
				return "", "", fmt.Errorf("%s: %w", tokenEnv, err)
			}
			return env, "$" + tokenEnv, nil
		}
	}
	path, err := tokenPath(file)
	if err != nil {
		return "", "", err
	}
	if file != "" {
		// A file named on the command line is one the operator's clients
		// already hold the token of: a new one made in its place (or in a
		// directory made for it) would lock them all out.
		if _, err := os.Stat(path); err != nil {
			return "", "", fmt.Errorf("--token-file %s: %w; give the file that holds the token, make one with `assent token --rotate --token-file %s`, or leave --token-file out to use the default", file, unwrapPath(err), file)
		}
	}
	tok, err = server.LoadToken(path)
	return tok, path, err
}

// unwrapPath drops the operation and path a PathError repeats.
func unwrapPath(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// tokenPath is the token file: the one given, or "token" in the state
// directory.
func tokenPath(file string) (string, error) {
	if file != "" {
		return filepath.Abs(file)
	}
	dir, err := state.Dir()
	if err != nil {
		return "", err
	}
	return filepath.Join(dir, "token"), nil
}
