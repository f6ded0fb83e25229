package exec

import (
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestCommandHash_CoversTheConfinement(t *testing.T) {
	at := time.Date(2026, 1, 2, 3, 4, 5, 6, time.UTC)
	base := Command{Path: "/bin/cat", Argv: []string{"cat", "/srv/a"},
		Sandbox: &Sandbox{Read: []string{"/srv"}, Write: []string{"/srv/out"}},
		Program: Identity{Dev: 1, Ino: 2, Size: 3, Mtime: at, Ctime: at},
		Paths:   []PathCheck{{Given: "/srv/a", Resolved: "/srv/a"}}}
	variants := map[string]func(c *Command){
		"no sandbox":          func(c *Command) { c.Sandbox = nil },
		"empty sandbox":       func(c *Command) { c.Sandbox = &Sandbox{} },
		"a wider read set":    func(c *Command) { c.Sandbox = &Sandbox{Read: []string{"/"}, Write: []string{"/srv/out"}} },
		"read moved to write": func(c *Command) { c.Sandbox = &Sandbox{Write: []string{"/srv", "/srv/out"}} },
		"network": func(c *Command) {
			c.Sandbox = &Sandbox{Read: []string{"/srv"}, Write: []string{"/srv/out"}, Network: true}
		},
		"another inode":      func(c *Command) { c.Program.Ino = 9 },
		"another size":       func(c *Command) { c.Program.Size = 9 },
		"another ctime":      func(c *Command) { c.Program.Ctime = at.Add(time.Nanosecond) },
		"unpinned":           func(c *Command) { c.Program = Identity{} },
		"a path check less":  func(c *Command) { c.Paths = nil },
		"another resolution": func(c *Command) { c.Paths = []PathCheck{{Given: "/srv/a", Resolved: "/etc/a"}} },
	}
	h := base.Hash()
	for name, v := range variants {
		c := base
		v(&c)
		if c.Hash() == h {
			t.Errorf("%s: same hash", name)
		}
	}
	hashed := base
	hashed.Program.SHA256 = "ab"
	if hashed.Hash() != h {
		t.Error("the program's content hash changed the command's hash; it describes the same file")
	}
}

func TestCommandValidate_Confinement(t *testing.T) {
	ok := Command{Path: "/bin/ls", Argv: []string{"ls"}, Sandbox: &Sandbox{Read: []string{"/srv"}},
		Paths: []PathCheck{{Given: "/srv/x", Resolved: "/srv/y"}}}
	if err := ok.Validate(); err != nil {
		t.Fatal(err)
	}
	bad := []struct {
		name string
		edit func(c *Command)
		want string
	}{
		{"relative read path", func(c *Command) { c.Sandbox = &Sandbox{Read: []string{"srv"}} }, `sandbox read path "srv" is not absolute`},
		{"unclean write path", func(c *Command) { c.Sandbox = &Sandbox{Write: []string{"/srv/../etc"}} }, `sandbox write path "/srv/../etc" is not clean`},
		{"NUL in a sandbox path", func(c *Command) { c.Sandbox = &Sandbox{Read: []string{"/srv\x00"}} }, "contains a NUL byte"},
		{"relative path argument", func(c *Command) { c.Paths = []PathCheck{{Given: "x", Resolved: "/x"}} }, `path argument 0 as given "x" is not absolute`},
		{"unresolved path argument", func(c *Command) { c.Paths = []PathCheck{{Given: "/x", Resolved: ""}} }, "path argument 0 as resolved"},
	}
	for _, b := range bad {
		t.Run(b.name, func(t *testing.T) {
			c := ok
			b.edit(&c)
			if err := c.Validate(); err == nil || !strings.Contains(err.Error(), b.want) {
				t.Errorf("Validate = %v, want %q", err, b.want)
			}
		})
	}
}

func TestIdentityOf_RecordsAndHashes(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "prog")
	content := []byte("#!/bin/true\n")
	if err := os.WriteFile(path, content, 0o755); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "link")
	if err := os.Symlink(path, link); err != nil {
		t.Fatal(err)
	}
	id, err := IdentityOf(link, true)
	if err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(content)
	if id.SHA256 != hex.EncodeToString(sum[:]) || id.Size != int64(len(content)) || id.IsZero() {
		t.Errorf("identity %+v, want size %d and hash %x", id, len(content), sum)
	}
	plain, err := IdentityOf(path, false)
	if err != nil || plain.SHA256 != "" || !plain.Same(id) {
		t.Errorf("without hash: %+v, %v; want the same file, no hash", plain, err)
	}
	for name, p := range map[string]string{"a directory": dir, "a missing file": filepath.Join(dir, "gone")} {
		if _, err := IdentityOf(p, true); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
}

func TestResolve_FollowsLinksIntoWhatDoesNotExistYet(t *testing.T) {
	root, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(os.Mkdir(filepath.Join(root, "real"), 0o755))
	must(os.Symlink("real", filepath.Join(root, "rel")))
	must(os.Symlink(filepath.Join(root, "real", "target"), filepath.Join(root, "dangling")))
	must(os.Symlink("loop", filepath.Join(root, "loop")))
	tests := []struct {
		in, want, wantErr string
	}{
		{in: filepath.Join(root, "rel"), want: filepath.Join(root, "real")},
		{in: filepath.Join(root, "rel", "new", "file"), want: filepath.Join(root, "real", "new", "file")},
		{in: filepath.Join(root, "dangling"), want: filepath.Join(root, "real", "target")},
		{in: root + "/rel/../rel/x", want: filepath.Join(root, "real", "x")},
		{in: filepath.Join(root, "loop"), wantErr: "too many levels of symbolic links"},
		{in: filepath.Join(root, "loop", "new"), wantErr: "too many levels of symbolic links"},
		{in: "relative", wantErr: "not absolute"},
	}
	for _, tt := range tests {
		got, err := Resolve(tt.in)
		if tt.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Errorf("Resolve(%q) = %q, %v; want an error with %q", tt.in, got, err, tt.wantErr)
			}
			continue
		}
		if err != nil || got != tt.want {
			t.Errorf("Resolve(%q) = %q, %v; want %q", tt.in, got, err, tt.want)
		}
	}
}

func TestParseSandboxMode(t *testing.T) {
	for in, want := range map[string]SandboxMode{"": SandboxBestEffort, "best-effort": SandboxBestEffort, "required": SandboxRequired, "off": SandboxOff} {
		if got, err := ParseSandboxMode(in); err != nil || got != want {
			t.Errorf("ParseSandboxMode(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
	if _, err := ParseSandboxMode("strict"); err == nil || !strings.Contains(err.Error(), `unknown sandbox mode "strict"`) {
		t.Errorf("ParseSandboxMode(strict) = %v", err)
	}
}
