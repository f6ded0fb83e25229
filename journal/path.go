package journal

import (
	"fmt"
	"os"
	"path/filepath"
)

// DefaultPath returns where the journal lives when no --journal is given:
// $XDG_STATE_HOME/assent/journal.jsonl, or ~/.local/state/assent/journal.jsonl
// when XDG_STATE_HOME is unset or not absolute (the XDG base directory
// specification says to ignore a relative one).
func DefaultPath() (string, error) {
	if dir := os.Getenv("XDG_STATE_HOME"); dir != "" && filepath.IsAbs(dir) {
		return filepath.Join(dir, "assent", "journal.jsonl"), nil
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return "", fmt.Errorf("no journal location: %w (give one with --journal)", err)
	}
	return filepath.Join(home, ".local", "state", "assent", "journal.jsonl"), nil
}
