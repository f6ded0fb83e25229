package exec

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"os"
)

// hashFile returns the SHA-256 of the file at path, which must still be the
// file id describes before and after it is read: a program rewritten while
// it is hashed would otherwise be recorded with a hash of neither version.
func hashFile(path string, id Identity) (string, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	same := func() error {
		fi, err := f.Stat()
		if err != nil {
			return err
		}
		if !identityOf(fi).Same(id) {
			return fmt.Errorf("%s changed while it was being hashed", path)
		}
		return nil
	}
	if err := same(); err != nil {
		return "", err
	}
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", err
	}
	if err := same(); err != nil {
		return "", err
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}
