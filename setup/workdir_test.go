package setup

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The default tools read "."; started from / , the home directory or a
// system directory they would hand an agent everything, so that start is
// refused with what to do instead. Tool files named by the operator are
// theirs to judge.
func TestLoad_DefaultToolsRefuseBroadWorkDirs(t *testing.T) {
	_, state := dirs(t)
	home, _ := os.UserHomeDir()
	for _, dir := range []string{"/", home, "/usr/share", "/etc"} {
		l, err := NewLoader(Options{ConfigDir: filepath.Join(state, "none"), Remembered: filepath.Join(state, "r.json"), WorkDir: dir})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := l.Load(); err == nil || !strings.Contains(err.Error(), "cd into a project directory") {
			t.Errorf("started in %s: %v, want a refusal", dir, err)
		}
	}
	work, _ := dirs(t)
	l, err := NewLoader(Options{ConfigDir: filepath.Join(state, "none"), Remembered: filepath.Join(state, "r.json"), WorkDir: work})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := l.Load(); err != nil {
		t.Errorf("started in a project directory: %v", err)
	}
}

// A home directory reached through a symlink is still the home directory,
// whichever of the two names assent was started under.
func TestLoad_DefaultToolsRefuseASymlinkedHome(t *testing.T) {
	_, base := dirs(t)
	real := filepath.Join(base, "real-home")
	link := filepath.Join(base, "home")
	if err := os.Mkdir(real, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(real, link); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ home, workDir string }{{link, real}, {real, link}, {link, link}} {
		t.Run("HOME="+filepath.Base(tc.home)+",cwd="+filepath.Base(tc.workDir), func(t *testing.T) {
			t.Setenv("HOME", tc.home)
			l, err := NewLoader(Options{ConfigDir: filepath.Join(base, "none"), Remembered: filepath.Join(base, "r.json"),
				WorkDir: tc.workDir, StateDirs: []string{filepath.Join(base, "state")}})
			if err != nil {
				t.Fatal(err)
			}
			if _, err := l.Load(); err == nil || !strings.Contains(err.Error(), "your home directory") {
				t.Errorf("started in the home directory: %v, want a refusal", err)
			}
		})
	}
}
