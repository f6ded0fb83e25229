package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestToken_PrintKeepRotate(t *testing.T) {
	state := inTempState(t)
	t.Setenv(tokenEnv, "")
	first, err := run(t, "token")
	if err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Stat(filepath.Join(state, "assent", "token")); err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("token file: %v %v", fi, err)
	}
	again, err := run(t, "token")
	if err != nil || again != first {
		t.Fatalf("second print %q (%v), want %q", again, err, first)
	}
	rotated, err := run(t, "token", "--rotate")
	if err != nil || rotated == first || len(strings.TrimSpace(rotated)) < 43 {
		t.Fatalf("rotate: %q %v", rotated, err)
	}
	if now, _ := run(t, "token"); now != rotated {
		t.Fatalf("after rotation %q, want %q", now, rotated)
	}
}

func TestToken_FromTheEnvironment(t *testing.T) {
	inTempState(t)
	t.Setenv(tokenEnv, "env-token-0123456789abcdef")
	if out, err := run(t, "token"); err != nil || out != "env-token-0123456789abcdef\n" {
		t.Fatalf("token %q %v", out, err)
	}
	if _, err := run(t, "token", "--rotate"); err == nil || !strings.Contains(err.Error(), "ASSENT_TOKEN is set") {
		t.Fatalf("rotate with ASSENT_TOKEN set: %v", err)
	}
	t.Setenv(tokenEnv, "short")
	if _, err := run(t, "token"); err == nil || !strings.Contains(err.Error(), "at least 16") {
		t.Fatalf("short ASSENT_TOKEN: %v", err)
	}
	file := filepath.Join(t.TempDir(), "tok")
	if _, err := run(t, "token", "--rotate", "--token-file", file); err != nil {
		t.Fatal(err)
	}
	out, err := run(t, "token", "--token-file", file)
	if err != nil || strings.Contains(out, "short") {
		t.Fatalf("--token-file beats ASSENT_TOKEN: %q %v", out, err)
	}
}
