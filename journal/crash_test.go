package journal

import (
	"bufio"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// crashWriterEnv names the journal a re-executed test binary writes to
// until it is killed.
const crashWriterEnv = "ASSENT_JOURNAL_CRASH_WRITER"

// crashWriter is the child's side of TestJournal_SurvivesSIGKILL: it opens
// the journal (recovering whatever the last kill left), says "ready", and
// has four goroutines append the lives of calls as fast as they can, some
// with output large enough that one write(2) spans many pages and a kill
// can land inside it. It never returns on its own.
func crashWriter(path string) int {
	j, err := Open(path, Options{})
	if err != nil {
		fmt.Fprintln(os.Stderr, "crash writer:", err)
		return 2
	}
	fmt.Println("ready")
	var wg sync.WaitGroup
	for g := range 4 {
		wg.Go(func() {
			big := []byte(strings.Repeat("0123456789abcdef", 8<<10)) // 128 KiB, cut to the cap
			for n := 0; ; n++ {
				id := fmt.Sprintf("p%d-g%d-%d", os.Getpid(), g, n)
				life := lifeOfCall(id)
				if n%20 == 0 {
					life[3].Stdout = NewBlob(big, 0)
				}
				for _, r := range life {
					if _, err := j.Append(r); err != nil {
						fmt.Fprintln(os.Stderr, "crash writer:", err)
						os.Exit(3)
					}
				}
			}
		})
	}
	wg.Wait()
	return 0
}

func TestJournal_SurvivesSIGKILL(t *testing.T) {
	if testing.Short() {
		t.Skip("re-executes the test binary many times")
	}
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "journal.jsonl")
	const kills = 30
	var torn, interrupted int
	rng := rand.New(rand.NewPCG(1, 2))
	for i := range kills {
		cmd := exec.Command(exe, "-test.run=^$")
		cmd.Env = append(os.Environ(), crashWriterEnv+"="+path)
		var stderr strings.Builder
		cmd.Stderr = &stderr
		out, err := cmd.StdoutPipe()
		if err != nil {
			t.Fatal(err)
		}
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		// Mostly kill while records stream; now and then while the child
		// is still opening and recovering the journal.
		if i%5 != 4 {
			line, _ := bufio.NewReader(out).ReadString('\n')
			if line != "ready\n" {
				cmd.Process.Kill()
				cmd.Wait()
				t.Fatalf("kill %d: writer said %q, stderr: %s", i, line, stderr.String())
			}
		}
		time.Sleep(time.Duration(rng.IntN(15_000)) * time.Microsecond)
		if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
			t.Fatal(err)
		}
		cmd.Wait()
		if stderr.Len() > 0 {
			t.Fatalf("kill %d: writer failed: %s", i, stderr.String())
		}

		j, err := Open(path, Options{Sync: []SyncMode{SyncGroup, SyncAlways}[i%2]})
		if err != nil {
			t.Fatalf("kill %d: Open after SIGKILL: %v", i, err)
		}
		rec := j.Recovery()
		if err := j.Close(); err != nil {
			t.Fatal(err)
		}
		if rec.Fault != nil {
			t.Fatalf("kill %d: recovery found a broken chain: %v", i, rec.Fault)
		}
		torn += min(int(rec.TornBytes), 1)
		interrupted += len(rec.Interrupted)
	}
	// Each Open above verified the chain up to it, the records recovery
	// added included; this checks the last ones.
	if rep, err := Verify(path); err != nil || rep.Fault != nil || rep.TornBytes != 0 {
		t.Fatalf("Verify after the last recovery = %+v, %v", rep, err)
	}
	recs, err := Read(path)
	if err != nil {
		t.Fatal(err)
	}
	calls := Calls(recs)
	for _, c := range calls {
		if c.State != Finished && c.State != Interrupted {
			t.Errorf("call %s was left %s after recovery", c.ID, c.State)
		}
	}
	if interrupted == 0 {
		t.Errorf("no kill left a call unfinished in %d kills: the test did not kill mid-stream", kills)
	}
	t.Logf("%d kills: %d records, %d calls, %d torn tails cut, %d calls marked interrupted",
		kills, len(recs), len(calls), torn, interrupted)
}
