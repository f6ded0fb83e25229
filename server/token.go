package server

import (
	"crypto/rand"
	"encoding/base64"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strings"

	"github.com/assent-sh/assent/state"
)

// tokenBytes is the entropy of a generated token: 256 bits.
const tokenBytes = 32

// NewToken returns a fresh random token (256 bits, base64url).
func NewToken() string {
	b := make([]byte, tokenBytes)
	rand.Read(b) // never fails (crypto/rand panics rather than return short)
	return base64.RawURLEncoding.EncodeToString(b)
}

// CheckToken refuses a token too short or too odd to guard the server: at
// least 16 characters, printable ASCII without spaces (it travels in an
// HTTP header).
func CheckToken(tok string) error {
	if len(tok) < minTokenLen {
		return fmt.Errorf("the token is %d characters; at least %d are required", len(tok), minTokenLen)
	}
	for _, c := range []byte(tok) {
		if c <= ' ' || c > '~' {
			return errors.New("the token may hold only printable ASCII characters without spaces")
		}
	}
	return nil
}

// LoadToken returns the token kept in path, generating it on first use so
// that saved client configurations survive restarts. The file is created
// 0600 (its directory 0700), and a file others may read is refused rather
// than trusted.
func LoadToken(path string) (string, error) {
	tok, err := readToken(path)
	if !errors.Is(err, fs.ErrNotExist) {
		return tok, err
	}
	tok = NewToken()
	// Creation fails if another assent created the file meanwhile; its
	// token then wins, and both processes use the same one.
	if err := state.CreateFile(path, []byte(tok+"\n"), 0o600); err != nil {
		if errors.Is(err, fs.ErrExist) {
			return readToken(path)
		}
		return "", fmt.Errorf("token file: %w", err)
	}
	return tok, nil
}

// RotateToken replaces the token in path with a fresh one, atomically,
// and returns it. Clients holding the old token are refused from then on
// (a running server reads the file at start, so restart it).
func RotateToken(path string) (string, error) {
	tok := NewToken()
	if err := state.WriteFile(path, []byte(tok+"\n"), 0o600); err != nil {
		return "", fmt.Errorf("token file: %w", err)
	}
	return tok, nil
}

// readToken reads and checks a token file.
func readToken(path string) (string, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return "", err
	}
	if fi.Mode().Perm()&0o077 != 0 {
		return "", fmt.Errorf("token file %s is readable or writable by others (mode %04o); run chmod 600 on it, or `assent token --rotate` after removing it",
			path, fi.Mode().Perm())
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return "", err
	}
	tok := strings.TrimSpace(string(data))
	if err := CheckToken(tok); err != nil {
		return "", fmt.Errorf("token file %s: %w", path, err)
	}
	return tok, nil
}
