package journal

import (
	"bufio"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// sessionWriterEnv names the writer a re-executed test binary plays in
// TestJournal_ProcessesShareTheDefaultJournal.
const sessionWriterEnv = "ASSENT_JOURNAL_SESSION_WRITER"

// sessionCalls is how many calls each session writer journals.
const sessionCalls = 20

// sessionWriter is one agent session's assent process: it opens the
// journal where assent's default is ($XDG_STATE_HOME/assent/journal) and
// says "ready"; then for each line it reads it journals one call and says
// "ok"; at the end of its input it closes the journal.
func sessionWriter() int {
	name := os.Getenv(sessionWriterEnv)
	j, err := Open(filepath.Join(os.Getenv("XDG_STATE_HOME"), "assent", "journal"), Options{})
	if err == nil {
		fmt.Println("ready")
		in := bufio.NewScanner(os.Stdin)
		for i := 0; err == nil && in.Scan(); i++ {
			for _, r := range lifeOfCall(fmt.Sprintf("%s-%d", name, i)) {
				if _, err = j.Append(r); err != nil {
					break
				}
			}
			fmt.Println("ok")
		}
		err = errors.Join(err, j.Close())
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "session writer:", err)
		return 2
	}
	return 0
}

func TestJournal_ProcessesShareTheDefaultJournal(t *testing.T) {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	state := t.TempDir()
	t.Setenv("XDG_STATE_HOME", state)
	type writer struct {
		cmd    *exec.Cmd
		stdin  *os.File
		stdout *bufio.Reader
		stderr *strings.Builder
	}
	var writers []writer
	for _, name := range []string{"a", "b"} {
		cmd := exec.Command(exe, "-test.run=^$")
		cmd.Env = append(os.Environ(), sessionWriterEnv+"="+name)
		r, w, err := os.Pipe()
		if err != nil {
			t.Fatal(err)
		}
		cmd.Stdin = r
		stderr := &strings.Builder{}
		cmd.Stderr = stderr
		out, err := cmd.StdoutPipe()
		if err != nil {
			t.Fatal(err)
		}
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		r.Close()
		t.Cleanup(func() { w.Close(); cmd.Process.Kill(); cmd.Wait() })
		// Both have the default journal open before either writes.
		stdout := bufio.NewReader(out)
		if line, _ := stdout.ReadString('\n'); line != "ready\n" {
			cmd.Wait()
			t.Fatalf("writer %s said %q: %s", name, line, stderr)
		}
		writers = append(writers, writer{cmd, w, stdout, stderr})
	}
	// They take turns, so their calls interleave in time.
	for range sessionCalls {
		for _, w := range writers {
			fmt.Fprintln(w.stdin, "call")
			if line, _ := w.stdout.ReadString('\n'); line != "ok\n" {
				t.Fatalf("writer said %q: %s", line, w.stderr)
			}
		}
	}
	for _, w := range writers {
		w.stdin.Close()
		if err := w.cmd.Wait(); err != nil {
			t.Fatalf("writer: %v: %s", err, w.stderr)
		}
	}

	dir := filepath.Join(state, "assent", "journal")
	rep := mustVerify(t, dir)
	if len(rep.Segments) != 2 || rep.Segments[0].State != SegmentClosed || rep.Segments[1].State != SegmentClosed {
		t.Fatalf("segments = %+v; want two, closed", rep.Segments)
	}
	recs, err := Read(dir)
	if err != nil {
		t.Fatal(err)
	}
	for i := 1; i < len(recs); i++ {
		if recs[i].Time.Before(recs[i-1].Time) {
			t.Fatalf("record %d (%s) is older than the one before it (%s)", i, recs[i].Time, recs[i-1].Time)
		}
	}
	var order []string
	for _, c := range Calls(recs) {
		order = append(order, c.ID[:1])
	}
	if got, want := strings.Join(order, ""), strings.Repeat("ab", sessionCalls); got != want {
		t.Errorf("calls in time order by writer: %s; want %s", got, want)
	}
}
