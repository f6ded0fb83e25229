package server

import (
	"encoding/json"
	"fmt"
	"os"
	"time"

	"github.com/assent-sh/assent/state"
)

// Runtime is what a running console tells people and scripts about
// itself, in NAME.json beside its socket. It is advisory: the relay reads
// none of it (it trusts only the socket, its directory and the peer's
// uid), and it names no credential.
type Runtime struct {
	// Name is the console's name (`assent stdio --console NAME`).
	Name string `json:"name"`
	// Socket is the local socket the relay connects to.
	Socket string `json:"socket"`
	// URL is the Streamable HTTP endpoint, which needs the bearer token
	// (`assent token`).
	URL string `json:"url,omitempty"`
	// PID is the console's process id.
	PID int `json:"pid"`
	// Started is when it started listening.
	Started time.Time `json:"started"`
}

// writeRuntime writes r to path atomically, 0600.
func writeRuntime(path string, r Runtime) error {
	data, err := json.MarshalIndent(r, "", "  ")
	if err != nil {
		return err
	}
	if err := state.WriteFile(path, append(data, '\n'), 0o600); err != nil {
		return fmt.Errorf("runtime file: %w", err)
	}
	return nil
}

// ReadRuntime reads a console's runtime file.
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
