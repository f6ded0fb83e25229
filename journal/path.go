package journal

import (
	"fmt"
	"os"
	"path/filepath"
)

// DefaultPath returns where the journal lives when no --journal is given:
// the directory $XDG_STATE_HOME/assent/journal, or
// ~/.local/state/assent/journal when XDG_STATE_HOME is unset or not
// absolute (the XDG base directory specification says to ignore a relative
// one). The single file journal.jsonl beside it, the default before
// journals were directories, is adopted into it on first Open.
func DefaultPath() (string, error) {
	if dir := os.Getenv("XDG_STATE_HOME"); dir != "" && filepath.IsAbs(dir) {
		return filepath.Join(dir, "assent", "journal"), nil
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return "", fmt.Errorf("no journal location: %w (give one with --journal)", err)
	}
	return filepath.Join(home, ".local", "state", "assent", "journal"), nil
}
