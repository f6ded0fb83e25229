package journal

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"go.uber.org/goleak"
)

func TestMain(m *testing.M) {
	// The crash test re-executes this binary as a writer to be killed.
	if path := os.Getenv(crashWriterEnv); path != "" {
		os.Exit(crashWriter(path))
	}
	goleak.VerifyTestMain(m)
}

// openTest opens a journal in a fresh directory and closes it when the test
// ends.
func openTest(t *testing.T, opts Options) *Journal {
	t.Helper()
	j, err := Open(filepath.Join(t.TempDir(), "state", "journal.jsonl"), opts)
	if err != nil {
		t.Fatalf("Open: %v", err)
	}
	t.Cleanup(func() { j.Close() })
	return j
}

// mustAppend appends r or fails the test.
func mustAppend(t *testing.T, j *Journal, r Record) Record {
	t.Helper()
	got, err := j.Append(r)
	if err != nil {
		t.Fatalf("Append %s %s: %v", r.Call, r.Event, err)
	}
	return got
}

// lifeOfCall returns the records of one call that ran to completion.
func lifeOfCall(id string) []Record {
	return []Record{
		{Call: id, Event: Received, Tool: "grep_search", Client: "test-client",
			Args: map[string]any{"pattern": "TODO"}, Path: "/usr/bin/grep",
			Argv: []string{"grep", "-rn", "--", "TODO", "./src"}, Cwd: "/srv/app"},
		{Call: id, Event: Decided, Decision: Allow, Decider: ByRule, Rule: "read-only"},
		{Call: id, Event: Started},
		{Call: id, Event: Finished, Exit: ExitCode(0), Duration: 12e6,
			Stdout: NewBlob([]byte("src/a.go:3: // TODO\n"), 0)},
	}
}

// writeCalls appends n completed calls named c1…cn.
func writeCalls(t *testing.T, j *Journal, n int) {
	t.Helper()
	for i := 1; i <= n; i++ {
		for _, r := range lifeOfCall(fmt.Sprintf("c%d", i)) {
			mustAppend(t, j, r)
		}
	}
}

// journalOf returns the path of a closed journal holding n completed calls
// (4 records each).
func journalOf(t *testing.T, n int) string {
	t.Helper()
	j := openTest(t, Options{})
	writeCalls(t, j, n)
	if err := j.Close(); err != nil {
		t.Fatal(err)
	}
	return j.Path()
}

// readLines returns the file's lines without their newlines; a torn tail
// comes last as it is.
func readLines(t *testing.T, path string) [][]byte {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return bytes.Split(bytes.TrimSuffix(data, []byte("\n")), []byte("\n"))
}

// writeLines replaces the file's content with lines, each newline-ended.
func writeLines(t *testing.T, path string, lines [][]byte) {
	t.Helper()
	var out []byte
	for _, l := range lines {
		out = append(append(out, l...), '\n')
	}
	if err := os.WriteFile(path, out, 0o600); err != nil {
		t.Fatal(err)
	}
}
