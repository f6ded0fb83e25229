package journal

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"go.uber.org/goleak"
)

func TestMain(m *testing.M) {
	// The crash and many-process tests re-execute this binary as writers.
	if path := os.Getenv(crashWriterEnv); path != "" {
		os.Exit(crashWriter(path))
	}
	if os.Getenv(sessionWriterEnv) != "" {
		os.Exit(sessionWriter())
	}
	goleak.VerifyTestMain(m)
}

// openTest opens a journal in a fresh directory and closes it when the test
// ends. Unless opts say otherwise it seals only by count, so that no seal
// lands among a test's records at a time of the clock's choosing.
func openTest(t *testing.T, opts Options) *Journal {
	t.Helper()
	if opts.SealInterval == 0 {
		opts.SealInterval = time.Hour
	}
	j, err := Open(filepath.Join(t.TempDir(), "state", "journal"), opts)
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
		{Call: id, Event: Finished, Exit: ExitCode(0), Duration: 12e6, Ending: Exited,
			Stdout: NewBlob([]byte("src/a.go:3: // TODO\n"), 0)},
	}
}

// writeCalls appends n completed calls named c1…cn.
func writeCalls(t testing.TB, j *Journal, n int) {
	t.Helper()
	for i := 1; i <= n; i++ {
		for _, r := range lifeOfCall(fmt.Sprintf("c%d", i)) {
			if _, err := j.Append(r); err != nil {
				t.Fatal(err)
			}
		}
	}
}

// journalOf returns a closed journal directory holding n completed calls
// (4 records each) in one segment, and that segment's file: an opened
// record, the calls' records, and the closing seal.
func journalOf(t *testing.T, n int, opts Options) (dir, file string) {
	t.Helper()
	j := openTest(t, opts)
	writeCalls(t, j, n)
	file = j.Path()
	if err := j.Close(); err != nil {
		t.Fatal(err)
	}
	return j.Dir(), file
}

// crash ends j as a SIGKILL would: what was written stays as it is, with no
// closing seal, and the lock is let go with its file left behind.
func crash(j *Journal) {
	j.mu.Lock()
	j.closed = true
	j.mu.Unlock()
	close(j.stop)
	<-j.done
	for _, f := range j.w.retired {
		f.f.Close()
	}
	j.w.f.Close()
	j.lock.drop()
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

// faultKinds lists the kinds of a report's faults, for comparing.
func faultKinds(rep Report) []FaultKind {
	var out []FaultKind
	for _, f := range rep.Faults {
		out = append(out, f.Kind)
	}
	return out
}

// mustVerify verifies path and fails the test on anything but an intact
// journal.
func mustVerify(t *testing.T, path string) Report {
	t.Helper()
	rep, err := Verify(path)
	if err != nil {
		t.Fatalf("Verify: %v", err)
	}
	if !rep.Intact() {
		t.Fatalf("Verify found faults: %+v", rep.Faults)
	}
	return rep
}
