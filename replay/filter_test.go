package replay

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/assent-sh/assent/journal"
	"github.com/assent-sh/assent/journal/journaltest"
	"github.com/assent-sh/assent/policy"
)

func TestRead_Filters(t *testing.T) {
	dir := journaltest.Write(t, "journal",
		journal.Record{Call: "a", Event: journal.Received, Tool: "read_file", Args: map[string]any{"path": "/etc/hosts"}},
		journal.Record{Call: "b", Event: journal.Received, Tool: "write_file"},
		journal.Record{Call: "a", Event: journal.Finished, Exit: journal.ExitCode(0), Ending: journal.Exited,
			Stdout: journal.NewBlob([]byte("localhost\n"), 0)},
		journal.Record{Call: "b", Event: journal.Decided, Decision: journal.Deny, Decider: journal.ByRule},
	)
	readTools, err := policy.GlobMatcher("read_*")
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		name   string
		filter Filter
		want   []string
	}{
		{"every call", Filter{}, []string{"a", "b"}},
		{"--tool read_*", Filter{Tool: readTools}, []string{"a"}},
		{"--call b", Filter{Call: "b"}, []string{"b"}},
		{"--since long ago", Filter{Since: time.Now().Add(-time.Hour)}, []string{"a", "b"}},
		{"--since later", Filter{Since: time.Now().Add(time.Hour)}, nil},
	} {
		t.Run(tt.name, func(t *testing.T) {
			calls, err := Read(context.Background(), dir, tt.filter)
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, c := range calls {
				got = append(got, c.ID)
			}
			if !slices.Equal(got, tt.want) {
				t.Errorf("calls %v, want %v", got, tt.want)
			}
		})
	}
	// A call is read whole, as replay submits and compares it, without its
	// records.
	calls, err := Read(context.Background(), dir, Filter{Call: "a"})
	if err != nil || len(calls) != 1 {
		t.Fatalf("Read = %v, %v", calls, err)
	}
	if c := calls[0]; c.Args["path"] != "/etc/hosts" || string(c.Stdout.Data()) != "localhost\n" || c.Events != nil {
		t.Errorf("call a read as %+v", c)
	}
}
