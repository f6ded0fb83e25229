package config

import (
	"path/filepath"
	"testing"
)

// testOptions returns options rooted in a fresh directory, with symlinks
// resolved so that expected paths compare equal.
func testOptions(t testing.TB) Options {
	t.Helper()
	dir, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	return Options{WorkDir: dir, PATH: "/usr/local/bin:/usr/bin:/bin"}
}

// load compiles one tool file.
func load(t testing.TB, opts Options, name, text string) (*Config, error) {
	t.Helper()
	return Load(opts, Source{Name: name, Data: []byte(text)})
}

// mustLoad compiles one tool file and fails the test on error.
func mustLoad(t testing.TB, opts Options, name, text string) *Config {
	t.Helper()
	c, err := load(t, opts, name, text)
	if err != nil {
		t.Fatalf("load %s: %v", name, err)
	}
	return c
}

// oneTool compiles a JSON file holding a single tool object.
func oneTool(t testing.TB, opts Options, toolJSON string) *Tool {
	t.Helper()
	c := mustLoad(t, opts, "tools.json", "["+toolJSON+"]")
	return c.Tools[0]
}
