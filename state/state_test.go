package state

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
)

func TestDirs_FollowXDG(t *testing.T) {
	t.Setenv("XDG_STATE_HOME", "/x/state")
	t.Setenv("XDG_CONFIG_HOME", "relative/is/ignored")
	t.Setenv("HOME", "/home/me")
	if d, err := Dir(); err != nil || d != "/x/state/assent" {
		t.Errorf("Dir() = %q, %v", d, err)
	}
	if d, err := JournalDir(); err != nil || d != "/x/state/assent/journal" {
		t.Errorf("JournalDir() = %q, %v", d, err)
	}
	if d, err := ConfigDir(); err != nil || d != "/home/me/.config/assent" {
		t.Errorf("ConfigDir() = %q, %v; want the home fallback for a relative XDG_CONFIG_HOME", d, err)
	}
}

func TestWriteFile_ReplacesAtomically(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "new")
	path := filepath.Join(dir, "f.json")
	for _, content := range []string{"first\n", "second\n"} {
		if err := WriteFile(path, []byte(content), 0o600); err != nil {
			t.Fatal(err)
		}
		if got, _ := os.ReadFile(path); string(got) != content {
			t.Errorf("content = %q, want %q", got, content)
		}
	}
	fi, err := os.Stat(path)
	if err != nil || fi.Mode().Perm() != 0o600 {
		t.Errorf("mode = %v (%v), want 0600", fi.Mode(), err)
	}
	if di, _ := os.Stat(dir); di.Mode().Perm() != 0o700 {
		t.Errorf("created directory mode = %v, want 0700", di.Mode())
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Errorf("directory holds %v, want only the file (no temporary left)", entries)
	}
}

func TestCreateFile_OneWinner(t *testing.T) {
	path := filepath.Join(t.TempDir(), "token")
	var wg sync.WaitGroup
	var mu sync.Mutex
	won, lost := 0, 0
	for i := range 8 {
		wg.Go(func() {
			err := CreateFile(path, []byte{byte('a' + i)}, 0o600)
			mu.Lock()
			defer mu.Unlock()
			switch {
			case err == nil:
				won++
			case errors.Is(err, fs.ErrExist):
				lost++
			default:
				t.Errorf("CreateFile: %v", err)
			}
		})
	}
	wg.Wait()
	if won != 1 || lost != 7 {
		t.Errorf("%d won and %d lost, want 1 and 7", won, lost)
	}
	if entries, _ := os.ReadDir(filepath.Dir(path)); len(entries) != 1 {
		t.Errorf("directory holds %v, want only the file", entries)
	}
}

func TestPrivateDir_RefusesWhatOthersControl(t *testing.T) {
	base := t.TempDir()
	other := filepath.Join(base, "elsewhere")
	if err := os.Mkdir(other, 0o700); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(base, "link")
	if err := os.Symlink(other, link); err != nil {
		t.Fatal(err)
	}
	open := filepath.Join(base, "open")
	if err := os.Mkdir(open, 0o777); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(open, 0o777); err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(base, "file")
	if err := os.WriteFile(file, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	cases := map[string]string{link: "symlink", open: "chmod 700", file: "not a directory"}
	if os.Getuid() == 0 {
		foreign := filepath.Join(base, "foreign")
		if err := os.Mkdir(foreign, 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.Chown(foreign, 4242, 4242); err != nil {
			t.Fatal(err)
		}
		cases[foreign] = "belongs to uid 4242"
	}
	for dir, want := range cases {
		if err := PrivateDir(dir); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("PrivateDir(%s) = %v, want an error saying %q", dir, err, want)
		}
	}
	fresh := filepath.Join(base, "fresh")
	if err := PrivateDir(fresh); err != nil {
		t.Fatal(err)
	}
	if fi, _ := os.Stat(fresh); fi.Mode().Perm() != 0o700 {
		t.Errorf("created mode %v, want 0700", fi.Mode())
	}
}

func TestRuntimeDir_FromUIDAlone(t *testing.T) {
	base := t.TempDir()
	runUser, tmp := filepath.Join(base, "run-user"), filepath.Join(base, "tmp")
	for _, d := range []string{runUser, tmp} {
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	uid := os.Getuid()
	t.Setenv("XDG_RUNTIME_DIR", "/elsewhere")
	t.Setenv("TMPDIR", "/elsewhere")
	// No /run/user/UID: the fixed per-user directory under tmp.
	got, err := runtimeDir(runUser, tmp, uid)
	if want := filepath.Join(tmp, "assent-"+itoa(uid)); err != nil || got != want {
		t.Errorf("without /run/user/UID: %q, %v; want %q", got, err, want)
	}
	// With it, and ours: inside it.
	if err := os.Mkdir(filepath.Join(runUser, itoa(uid)), 0o700); err != nil {
		t.Fatal(err)
	}
	got, err = runtimeDir(runUser, tmp, uid)
	if want := filepath.Join(runUser, itoa(uid), "assent"); err != nil || got != want {
		t.Errorf("with /run/user/UID: %q, %v; want %q", got, err, want)
	}
	// A fallback directory planted 0777 by someone is refused.
	planted := filepath.Join(tmp, "assent-"+itoa(uid+1))
	if err := os.Mkdir(planted, 0o777); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(planted, 0o777); err != nil {
		t.Fatal(err)
	}
	if _, err := runtimeDir(runUser, tmp, uid+1); err == nil {
		t.Error("a 0777 runtime directory was accepted")
	}
}

func itoa(n int) string { return strconv.Itoa(n) }

// TestRuntimeDir_RunUserNotOursFallsBack gives /run/user/UID to another
// user, or makes it a symlink to a directory of ours: whoever controls it
// could swap the assent directory inside, so the per-user directory under
// tmp is used instead.
func TestRuntimeDir_RunUserNotOursFallsBack(t *testing.T) {
	uid := os.Getuid()
	tests := []struct {
		name  string
		plant func(t *testing.T, base, runUserUID string)
		root  bool
	}{
		{"another user's", func(t *testing.T, _, dir string) {
			if err := os.Mkdir(dir, 0o700); err != nil {
				t.Fatal(err)
			}
			if err := os.Chown(dir, 4242, 4242); err != nil {
				t.Fatal(err)
			}
		}, true},
		{"a symlink to ours", func(t *testing.T, base, dir string) {
			ours := filepath.Join(base, "ours")
			if err := os.Mkdir(ours, 0o700); err != nil {
				t.Fatal(err)
			}
			if err := os.Symlink(ours, dir); err != nil {
				t.Fatal(err)
			}
		}, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if tc.root && uid != 0 {
				t.Skip("needs root, to give a directory to another user")
			}
			base := t.TempDir()
			runUser, tmp := filepath.Join(base, "run-user"), filepath.Join(base, "tmp")
			for _, d := range []string{runUser, tmp} {
				if err := os.Mkdir(d, 0o755); err != nil {
					t.Fatal(err)
				}
			}
			tc.plant(t, base, filepath.Join(runUser, itoa(uid)))
			got, err := runtimeDir(runUser, tmp, uid)
			if want := filepath.Join(tmp, "assent-"+itoa(uid)); err != nil || got != want {
				t.Errorf("runtimeDir = %q, %v; want the fallback %q", got, err, want)
			}
		})
	}
}
