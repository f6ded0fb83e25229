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

// crashOptions make the killed writers seal and rotate often, so that kills
// land in the middle of seals and of rotations too.
func crashOptions() Options { return Options{SealEvery: 5, MaxSize: 256 << 10} }

// crashWriter is the child's side of TestJournal_SurvivesSIGKILL: it opens
// the journal (recovering whatever the last kill left), says "ready", and
// has four goroutines append the lives of calls as fast as they can, some
// with output large enough that one write(2) spans many pages and a kill
// can land inside it. It never returns on its own.
func crashWriter(path string) int {
	j, err := Open(path, crashOptions())
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
	path := filepath.Join(t.TempDir(), "journal")
	const kills = 30
	var torn, interrupted, fromSeal int
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
		if rec.Fault != nil || len(rec.Problems) > 0 {
			t.Fatalf("kill %d: recovery found %v, %v", i, rec.Fault, rec.Problems)
		}
		// The killed writer sealed every 5 records; recovery starts from the
		// last seal that survived, a torn one at worst costing one more
		// round, so it reads a few records, not the segment.
		if i%5 != 4 {
			if len(rec.Segments) != 1 || rec.Records > 2*int64(crashOptions().SealEvery)+4 {
				t.Fatalf("kill %d: recovery = %+v; want one segment read from near its end", i, rec)
			}
			fromSeal++
		}
		torn += min(int(rec.TornBytes), 1)
		interrupted += len(rec.Interrupted)
		// Every journal it leaves verifies: seals, files, heads.
		rep := mustVerify(t, path)
		for _, s := range rep.Segments {
			if s.State != SegmentClosed {
				t.Fatalf("kill %d: segment %s is %s after recovery", i, s.Segment, s.State)
			}
		}
	}
	rep := mustVerify(t, path)
	rotated := 0
	for _, s := range rep.Segments {
		rotated += min(len(s.Files)-1, 1)
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
	t.Logf("%d kills: %d segments (%d rotated), %d seals, %d records, %d calls, %d torn tails cut, "+
		"%d calls marked interrupted, %d recovered from a seal",
		kills, len(rep.Segments), rotated, rep.Seals, len(recs), len(calls), torn, interrupted, fromSeal)
}
