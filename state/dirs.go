// Package state is where assent keeps its own files on this machine and
// how it writes them: the XDG state and config directories, the per-user
// runtime directory that local tools find the console through, and writes
// that a crash can never leave torn. Every other package asks it for these
// places instead of working them out again.
package state

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
)

// appName is the directory assent uses inside each XDG base directory.
const appName = "assent"

// Dir returns assent's state directory, for files that outlive a run (the
// journal, remembered rules, the token, the console's log):
// $XDG_STATE_HOME/assent, or ~/.local/state/assent when XDG_STATE_HOME is
// unset or relative (the XDG base directory specification says to ignore a
// relative one). It is not created here.
func Dir() (string, error) {
	return xdgDir("XDG_STATE_HOME", ".local/state")
}

// JournalDir returns where the journal lives when no --journal is given:
// journal in Dir. The single file journal.jsonl beside it, the default
// before journals were directories, is adopted into it when it is first
// opened.
func JournalDir() (string, error) {
	dir, err := Dir()
	if err != nil {
		return "", err
	}
	return filepath.Join(dir, "journal"), nil
}

// ConfigDir returns assent's config directory, where tool files and the
// policy live by default: $XDG_CONFIG_HOME/assent, or ~/.config/assent.
func ConfigDir() (string, error) {
	return xdgDir("XDG_CONFIG_HOME", ".config")
}

// xdgDir is $env/assent when env is absolute, else ~/fallback/assent.
func xdgDir(env, fallback string) (string, error) {
	if dir := os.Getenv(env); dir != "" && filepath.IsAbs(dir) {
		return filepath.Join(dir, appName), nil
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return "", fmt.Errorf("no home directory to keep assent's files in: %w (set %s)", err, env)
	}
	if !filepath.IsAbs(home) {
		return "", errors.New("the home directory is not an absolute path (set " + env + ")")
	}
	return filepath.Join(home, filepath.FromSlash(fallback), appName), nil
}
