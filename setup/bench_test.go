package setup

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/assent-sh/assent/server/servertest"
)

// BenchmarkLoad200 loads a file of 200 tools as a start does: read,
// compiled, checked against the protected files, and the policy built.
func BenchmarkLoad200(b *testing.B) {
	dir := b.TempDir()
	file := filepath.Join(dir, "many.json")
	if err := os.WriteFile(file, []byte(servertest.ManyTools(200)), 0o600); err != nil {
		b.Fatal(err)
	}
	l, err := NewLoader(Options{Tools: []string{file}, WorkDir: dir, Remembered: filepath.Join(dir, "remembered.json"),
		StateDirs: []string{filepath.Join(dir, "state")}})
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		if loaded, err := l.Load(); err != nil || len(loaded.Config.Tools) != 200 {
			b.Fatalf("loaded %v, %v", loaded.Config, err)
		}
	}
}
