package main

import (
	"path/filepath"

	"github.com/assent-sh/assent/journal"
)

// stateDir is assent's directory for state that outlives a run: the
// journal, remembered rules and the token. It follows XDG state
// ($XDG_STATE_HOME/assent, else ~/.local/state/assent), as the journal's
// default location does.
func stateDir() (string, error) {
	p, err := journal.DefaultPath()
	if err != nil {
		return "", err
	}
	return filepath.Dir(p), nil
}

// defaultRememberedPath is where "always allow" rules are kept.
func defaultRememberedPath() (string, error) {
	dir, err := stateDir()
	if err != nil {
		return "", err
	}
	return filepath.Join(dir, "remembered.json"), nil
}
