package journal

import (
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
)

// keySize is the length of the secret-masking key in bytes.
const keySize = 32

// keyring holds the journal's key. It masks secrets as it is, and seals
// with a key derived from it (sealKey). It is read, or created, the first
// time either needs it.
type keyring struct {
	path string
	mu   sync.Mutex
	key  []byte
}

// get returns the key, loading or creating it on first use. A failure is
// not remembered, so a key file fixed by the operator is picked up.
func (k *keyring) get() ([]byte, error) {
	k.mu.Lock()
	defer k.mu.Unlock()
	if k.key != nil {
		return k.key, nil
	}
	key, err := readKey(k.path)
	if errors.Is(err, fs.ErrNotExist) {
		key, err = createKey(k.path)
		if errors.Is(err, fs.ErrExist) {
			// Another process created it between our read and our link.
			key, err = readKey(k.path)
		}
	}
	if err != nil {
		return nil, err
	}
	k.key = key
	return key, nil
}

// readKey reads a key file, refusing one that others may read: whoever holds
// the key can test guesses of a secret against the journal's tokens.
func readKey(path string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		return nil, fmt.Errorf("journal key %s: %w", path, err)
	}
	if perm := info.Mode().Perm(); perm&0o077 != 0 {
		return nil, fmt.Errorf("journal key %s has mode %04o: it must be readable by its owner only (chmod 600)", path, perm)
	}
	text, err := io.ReadAll(io.LimitReader(f, 4*keySize))
	if err != nil {
		return nil, fmt.Errorf("journal key %s: %w", path, err)
	}
	key, err := hex.DecodeString(strings.TrimSpace(string(text)))
	if err != nil || len(key) < keySize {
		return nil, fmt.Errorf("journal key %s does not hold %d hex-encoded bytes", path, keySize)
	}
	return key, nil
}

// createKey writes a new random key. It goes to a temporary file that is
// then linked into place, so no reader ever sees a half-written key and two
// processes racing to create it agree on one (the loser gets fs.ErrExist).
func createKey(path string) ([]byte, error) {
	key := make([]byte, keySize)
	rand.Read(key)
	tmp, err := os.CreateTemp(filepath.Dir(path), ".journal-key-*")
	if err != nil {
		return nil, fmt.Errorf("create journal key %s: %w", path, err)
	}
	defer os.Remove(tmp.Name())
	// CreateTemp makes the file 0600 already; the chmod guards a umask or
	// filesystem that did otherwise.
	err = tmp.Chmod(0o600)
	if err == nil {
		_, err = tmp.WriteString(hex.EncodeToString(key) + "\n")
	}
	if err == nil {
		err = tmp.Sync()
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return nil, fmt.Errorf("create journal key %s: %w", path, err)
	}
	if err := os.Link(tmp.Name(), path); err != nil {
		if errors.Is(err, fs.ErrExist) {
			return nil, err
		}
		return nil, fmt.Errorf("create journal key %s: %w", path, err)
	}
	return key, nil
}

// sealLabel separates the seal key from the masking key. Masking computes
// HMAC(key, secret) for values an agent chooses; the seal key is
// SHA-256(label, 0, key), which no HMAC under the key computes, so no value
// an agent gets masked can give away a seal key, or a seal.
const sealLabel = "assent journal seal key v1"

// sealKey returns the key that seals and head files are MACed with,
// creating the journal's key if there is none yet.
func (k *keyring) sealKey() ([]byte, error) {
	key, err := k.get()
	if err != nil {
		return nil, err
	}
	return deriveSealKey(key), nil
}

// readSealKey reads the seal key of an existing key file, creating nothing:
// verifying a journal must not change it.
func readSealKey(path string) ([]byte, error) {
	key, err := readKey(path)
	if err != nil {
		return nil, err
	}
	return deriveSealKey(key), nil
}

func deriveSealKey(key []byte) []byte {
	h := sha256.New()
	h.Write([]byte(sealLabel))
	h.Write([]byte{0})
	h.Write(key)
	return h.Sum(nil)
}
