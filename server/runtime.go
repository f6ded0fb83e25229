package server

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	"github.com/assent-sh/assent/state"
)

// RuntimeFileName is the runtime file's name inside its directory.
const RuntimeFileName = "server.json"

// Runtime is what a running server tells other local tools (`assent
// stdio` relaying to it, scripts): where it listens and where its token
// is. It never holds the token itself.
type Runtime struct {
	// URL is the MCP endpoint.
	URL string `json:"url"`
	// TokenFile is the file holding the bearer token, or "" when the token
	// came from the environment.
	TokenFile string `json:"token_file,omitempty"`
	// TokenEnv names the environment variable the token came from, if so.
	TokenEnv string `json:"token_env,omitempty"`
	// PID is the server's process id.
	PID int `json:"pid"`
	// Started is when the server started listening.
	Started time.Time `json:"started"`
}

// RuntimePath returns where the runtime file lives: under
// $XDG_RUNTIME_DIR (a per-user 0700 directory that is cleared at logout)
// when it is an absolute path, else under the state directory. The
// console, the relay and local tools all find it through this one rule.
func RuntimePath() (string, error) {
	if dir := os.Getenv("XDG_RUNTIME_DIR"); dir != "" && filepath.IsAbs(dir) {
		return filepath.Join(dir, "assent", RuntimeFileName), nil
	}
	dir, err := state.Dir()
	if err != nil {
		return "", err
	}
	return filepath.Join(dir, "run", RuntimeFileName), nil
}

// WriteRuntime writes r to path atomically, 0600 in a 0700 directory.
func WriteRuntime(path string, r Runtime) error {
	data, err := json.MarshalIndent(r, "", "  ")
	if err != nil {
		return err
	}
	if err := state.WriteFile(path, append(data, '\n'), 0o600); err != nil {
		return fmt.Errorf("runtime file: %w", err)
	}
	return nil
}

// ReadRuntime reads the runtime file at path.
func ReadRuntime(path string) (Runtime, error) {
	var r Runtime
	data, err := os.ReadFile(path)
	if err != nil {
		return r, err
	}
	if err := json.Unmarshal(data, &r); err != nil {
		return r, fmt.Errorf("runtime file %s: %w", path, err)
	}
	return r, nil
}

// RemoveRuntime removes the runtime file at path if it still describes the
// process pid: a second server that started since owns it now.
func RemoveRuntime(path string, pid int) error {
	r, err := ReadRuntime(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	if r.PID != pid {
		return nil
	}
	return os.Remove(path)
}
