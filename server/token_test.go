package server

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestLoadToken_CreatedOnceThenKept(t *testing.T) {
	path := filepath.Join(t.TempDir(), "state", "token")
	first, err := LoadToken(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(first) < 43 { // 256 bits in base64url
		t.Fatalf("token %d characters", len(first))
	}
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if fi.Mode().Perm() != 0o600 {
		t.Fatalf("token file mode %04o", fi.Mode().Perm())
	}
	if di, _ := os.Stat(filepath.Dir(path)); di.Mode().Perm() != 0o700 {
		t.Fatalf("token directory mode %04o", di.Mode().Perm())
	}
	again, err := LoadToken(path)
	if err != nil || again != first {
		t.Fatalf("second load: %q %v, want the first token", again, err)
	}
	rotated, err := RotateToken(path)
	if err != nil || rotated == first {
		t.Fatalf("rotate: %q %v", rotated, err)
	}
	if now, _ := LoadToken(path); now != rotated {
		t.Fatal("rotation did not replace the kept token")
	}
	if left, _ := filepath.Glob(filepath.Join(filepath.Dir(path), ".token-*")); len(left) != 0 {
		t.Fatalf("temporary files left: %v", left)
	}
}

func TestLoadToken_Refusals(t *testing.T) {
	tests := []struct {
		name string
		text string
		mode os.FileMode
		want string
	}{
		{"readable by others", "0123456789abcdefXYZ", 0o644, "readable or writable by others (mode 0644)"},
		{"too short", "short", 0o600, "at least 16 are required"},
		{"spaces inside", "0123456789 abcdefXYZ", 0o600, "printable ASCII"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "token")
			if err := os.WriteFile(path, []byte(tc.text), tc.mode); err != nil {
				t.Fatal(err)
			}
			if err := os.Chmod(path, tc.mode); err != nil {
				t.Fatal(err)
			}
			_, err := LoadToken(path)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err %v, want %q", err, tc.want)
			}
		})
	}
}
