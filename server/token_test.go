package server

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
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

func TestRuntimeFile(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("XDG_RUNTIME_DIR", "/run/user/1000")
	if got, err := RuntimePath(); err != nil || got != "/run/user/1000/assent/server.json" {
		t.Errorf("runtime path %s %v", got, err)
	}
	t.Setenv("XDG_RUNTIME_DIR", "relative")
	t.Setenv("XDG_STATE_HOME", "/state")
	if got, err := RuntimePath(); err != nil || got != "/state/assent/run/server.json" {
		t.Errorf("fallback path %s %v", got, err)
	}
	t.Setenv("XDG_RUNTIME_DIR", dir)
	path, err := RuntimePath()
	if err != nil {
		t.Fatal(err)
	}
	want := Runtime{URL: "http://127.0.0.1:7323/mcp", TokenFile: "/state/token", PID: 42, Started: time.Unix(1, 0).UTC()}
	if err := WriteRuntime(path, want); err != nil {
		t.Fatal(err)
	}
	if fi, _ := os.Stat(path); fi.Mode().Perm() != 0o600 {
		t.Fatalf("runtime file mode %04o", fi.Mode().Perm())
	}
	got, err := ReadRuntime(path)
	if err != nil || got != want {
		t.Fatalf("read %+v %v", got, err)
	}
	if err := RemoveRuntime(path, 43); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(path); err != nil {
		t.Fatal("another process's runtime file was removed")
	}
	if err := RemoveRuntime(path, 42); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(path); !os.IsNotExist(err) {
		t.Fatal("own runtime file left behind")
	}
}
