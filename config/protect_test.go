//go:build unix

package config

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// protectFixture is a working directory wd whose out/ a tool "write" may
// write (and whose wd a tool "make" may, as its working directory, when
// withMake), and a directory safe that no tool can write.
type protectFixture struct {
	wd, safe string
	opts     Options
}

func newProtectFixture(t *testing.T) protectFixture {
	t.Helper()
	opts := testOptions(t)
	safe, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range []string{filepath.Join(opts.WorkDir, "out"), filepath.Join(opts.WorkDir, "bin"), filepath.Join(safe, "bin")} {
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	return protectFixture{wd: opts.WorkDir, safe: safe, opts: opts}
}

// writeTool is a tool that may write below wd/out only.
const writeTool = `{"name": "write", "command": "tee -- {p}", "params": {"p": {"type": "path", "under": ["out"]}}, "cwd": "out"}`

func writeFile(t *testing.T, path, text string, mode os.FileMode) string {
	t.Helper()
	if err := os.WriteFile(path, []byte(text), mode); err != nil {
		t.Fatal(err)
	}
	return path
}

func checkErr(t *testing.T, err error, want string) {
	t.Helper()
	switch {
	case want == "" && err != nil:
		t.Fatalf("refused: %v", err)
	case want != "" && (err == nil || !strings.Contains(err.Error(), want)):
		t.Fatalf("err = %v\nwant it to contain %q", err, want)
	}
}

// The attack: a tool writes through a hard link it made inside its root,
// and so rewrites the tool file, whose own name lies outside every root.
func TestCheckProtected_HardLinkInAWriteRoot(t *testing.T) {
	f := newProtectFixture(t)
	toolFile := writeFile(t, filepath.Join(f.safe, "tools.json"), "["+writeTool+"]", 0o600)
	c := mustLoad(t, f.opts, toolFile, "["+writeTool+"]")
	checkErr(t, c.CheckProtected(ProtectedFile{What: "tool file", Path: toolFile}), "")

	link := filepath.Join(f.wd, "out", "todo.txt")
	if err := os.Link(toolFile, link); err != nil {
		t.Fatal(err)
	}
	checkErr(t, c.CheckProtected(ProtectedFile{What: "tool file", Path: toolFile}),
		"tool file "+toolFile+" has another name, "+link+", under "+f.wd+"/out, where tool \"write\" (path parameter {p})")
}

func TestCheckProtected_HardLinkAnywhere(t *testing.T) {
	f := newProtectFixture(t)
	token := writeFile(t, filepath.Join(f.safe, "token"), "secret", 0o600)
	if err := os.Link(token, filepath.Join(f.safe, "token.bak")); err != nil {
		t.Fatal(err)
	}
	c := mustLoad(t, f.opts, "tools.json", "["+writeTool+"]")
	checkErr(t, c.CheckProtected(ProtectedFile{What: "token", Path: token}),
		"token "+token+" has 2 names (hard links)")
}

func TestCheckProtected_Directories(t *testing.T) {
	f := newProtectFixture(t)
	c := mustLoad(t, f.opts, "tools.json", "["+writeTool+"]")
	checkErr(t, c.CheckProtected(ProtectedFile{What: "runtime directory", Path: f.safe}), "")
	checkErr(t, c.CheckProtected(ProtectedFile{What: "runtime directory", Path: f.wd}),
		"runtime directory "+f.wd+" holds "+f.wd+"/out, where tool \"write\" (path parameter {p})")
	checkErr(t, c.CheckProtected(ProtectedFile{What: "runtime directory", Path: filepath.Join(f.wd, "out", "run")}),
		"runtime directory "+f.wd+"/out/run lies under "+f.wd+"/out")
}

// A name that lies under a root can be replaced even when it is a symlink
// to a safe place: the agent retargets it.
func TestCheckProtected_SymlinkNameUnderARoot(t *testing.T) {
	f := newProtectFixture(t)
	real := writeFile(t, filepath.Join(f.safe, "policy.json"), "[]", 0o600)
	name := filepath.Join(f.wd, "out", "policy.json")
	if err := os.Symlink(real, name); err != nil {
		t.Fatal(err)
	}
	c := mustLoad(t, f.opts, "tools.json", "["+writeTool+"]")
	checkErr(t, c.CheckProtected(ProtectedFile{What: "policy file", Path: name}),
		"policy file "+name+" lies under "+f.wd+"/out")
}

// A root seen through another name (a bind mount) is recognised by the
// identity of its directory.
func TestRootSet_UnderByIdentity(t *testing.T) {
	f := newProtectFixture(t)
	st, _, ok := statPath(f.safe)
	if !ok {
		t.Fatal("no identity for a directory")
	}
	mounted := "/mnt/elsewhere"
	rs := &rootSet{roots: []WritableRoot{{Dir: mounted, Tool: "write", Via: "path parameter {p}"}},
		ids: map[fileID]string{st.id: mounted}}
	for _, p := range []string{filepath.Join(f.safe, "tools.json"), filepath.Join(f.safe, "a", "b"), f.safe} {
		if got := rs.under(p); got != mounted {
			t.Errorf("under(%s) = %q, want %q", p, got, mounted)
		}
	}
	if got := rs.under(f.wd); got != "" {
		t.Errorf("under(%s) = %q, want no root", f.wd, got)
	}
}
