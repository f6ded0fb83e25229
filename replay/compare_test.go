package replay

import (
	"strings"
	"testing"

	"github.com/assent-sh/assent/exec"
	"github.com/assent-sh/assent/journal"
	"github.com/assent-sh/assent/queue"
)

func TestCompare_HowTheCallEndedThen(t *testing.T) {
	zero := 0
	exited := queue.Call{Ending: queue.Exited, Result: &exec.Result{ExitCode: 0}}
	for _, tc := range []struct {
		name string
		then journal.Call
		now  queue.Call
		want string // in the one difference; "" for the same
	}{
		{"interrupted while running", journal.Call{State: journal.Interrupted, Decision: journal.Allow}, exited,
			"then it was interrupted (assent stopped before the call ended: its outcome is unknown), now it exited 0"},
		{"never ended", journal.Call{State: journal.Started, Decision: journal.Allow}, exited,
			"then it had not ended when the journal was read, now it exited 0"},
		{"denied then, runs now", journal.Call{State: journal.Decided, Decision: journal.Deny, Decider: journal.ByOperator,
			Ending: journal.Denied, Reason: "no"}, exited, "then it was denied by operator: no, now it exited 0"},
		{"refused then and now", journal.Call{State: journal.Decided, Decision: journal.Deny, Decider: journal.ByValidation,
			Ending: journal.Refused}, queue.Call{Ending: queue.EndRefused}, ""},
		{"exited the same", journal.Call{State: journal.Finished, Ending: journal.Exited, Exit: &zero,
			Stdout: &journal.Blob{}, Stderr: &journal.Blob{}}, exited, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := Compare(tc.then, tc.now, "r1")
			got := strings.Join(c.Differs, "\n")
			if got != tc.want {
				t.Errorf("differences:\n%s\nwant:\n%s", got, tc.want)
			}
		})
	}
}
