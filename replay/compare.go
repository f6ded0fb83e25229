package replay

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"strings"

	udiff "github.com/aymanbagabas/go-udiff"

	"github.com/assent-sh/assent/journal"
	"github.com/assent-sh/assent/queue"
)

// Comparison is a replayed call beside the journaled one it replays.
type Comparison struct {
	// Call is the journaled call's id; Replay the replay's journal id
	// ("" when it was not submitted).
	Call   string `json:"call"`
	Replay string `json:"replay,omitempty"`
	Tool   string `json:"tool"`
	// Skipped says why the call was not replayed ("" when it was).
	Skipped string `json:"skipped,omitempty"`
	// Differs lists how the replay's outcome differs from the record: the
	// ending, the exit code, and a unified diff of each stream that
	// changed. Empty means the same.
	Differs []string `json:"differs,omitempty"`
}

// Same reports whether the call was replayed and came out as recorded.
func (c Comparison) Same() bool { return c.Skipped == "" && len(c.Differs) == 0 }

// Compare sets the outcome of a replay (now) beside the journaled call it
// replays. A call that ran both times is the same when it exited with the
// same code and wrote the same bytes: each stream is compared by the hash
// the journal kept of it, and shown as a unified diff of the stored copy,
// or, when the journal kept only the beginning of a stream, said to
// differ by its hash. A call that did not run, then or now, is the same
// when it ended the same way.
func Compare(then journal.Call, now queue.Call, journalID string) Comparison {
	c := Comparison{Call: then.ID, Replay: journalID, Tool: then.Tool}
	ranThen, ranNow := ran(then), now.Ending.Ran()
	switch {
	case ranThen != ranNow || then.Ending == "":
		c.Differs = append(c.Differs, fmt.Sprintf("then %s, now %s", endedThen(then), endedNow(now)))
		return c
	case !ranThen:
		if then.Ending != now.Ending {
			c.Differs = append(c.Differs, fmt.Sprintf("then %s, now %s", endedThen(then), endedNow(now)))
		}
		return c
	}
	r := now.Result
	if then.Exit == nil || *then.Exit != r.ExitCode {
		c.Differs = append(c.Differs, fmt.Sprintf("exit code %s then, %d now", exitText(then.Exit), r.ExitCode))
	}
	for _, s := range []struct {
		name string
		blob *journal.Blob
		data []byte
	}{{"stdout", then.Stdout, r.Stdout.Data}, {"stderr", then.Stderr, r.Stderr.Data}} {
		if d := streamDiff(s.name, s.blob, s.data); d != "" {
			c.Differs = append(c.Differs, d)
		}
	}
	return c
}

// streamDiff compares one stream's record with its new bytes: "" when they
// are the same.
func streamDiff(name string, then *journal.Blob, now []byte) string {
	if then == nil {
		then = &journal.Blob{}
	}
	sum := sha256.Sum256(now)
	switch {
	case then.SHA256 != "" && then.SHA256 == hex.EncodeToString(sum[:]):
		return ""
	case then.SHA256 == "" && bytes.Equal(then.Data(), now):
		return ""
	case then.Truncated:
		return fmt.Sprintf("%s differs (by its hash); the journal kept only its first %d of %d bytes, so no diff is shown",
			name, len(then.Data()), then.Bytes)
	}
	d := udiff.Unified(name+" then", name+" now", string(then.Data()), string(now))
	return name + " differs:\n" + strings.TrimRight(d, "\n")
}

// ran reports whether a journaled call's program ran. Every call that ended
// has an Ending (journal reads old records' endings from their other
// fields); one interrupted, or never ended, has none.
func ran(c journal.Call) bool { return c.Ending.Ran() }

func endedThen(c journal.Call) string {
	switch {
	case ran(c):
		return "it exited " + exitText(c.Exit)
	case c.Ending == journal.Denied:
		return "it was denied by " + string(c.Decider) + reasonText(c.Reason)
	case c.Ending == "" && c.State == journal.Interrupted:
		return "it was interrupted (assent stopped before the call ended: its outcome is unknown)"
	case c.Ending == "":
		return "it had not ended when the journal was read"
	}
	return "it ended " + string(c.Ending) + reasonText(c.Reason)
}

func endedNow(c queue.Call) string {
	switch {
	case c.Ending.Ran() && c.Result != nil:
		return fmt.Sprintf("it exited %d", c.Result.ExitCode)
	case c.Ending == queue.EndDenied:
		return "it was denied by " + string(c.Decider) + reasonText(c.Reason)
	}
	return "it ended " + string(c.Ending) + reasonText(c.EndingText())
}

func reasonText(r string) string {
	if r == "" {
		return ""
	}
	return ": " + r
}

func exitText(code *int) string {
	if code == nil {
		return "-"
	}
	return fmt.Sprint(*code)
}
