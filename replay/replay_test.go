package replay

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/assent-sh/assent/config"
	"github.com/assent-sh/assent/journal"
)

// maskedCall returns a call as the journal keeps one whose argument was a
// secret: the value is gone, its token (as the queue puts it) in its place.
func maskedCall(t *testing.T) journal.Call {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "journal")
	j, err := journal.Open(dir, journal.Options{})
	if err != nil {
		t.Fatal(err)
	}
	token, err := j.Token("hunter2")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := j.Append(journal.Record{Call: "m", Event: journal.Received, Tool: "login",
		Args: map[string]any{"user": "me", "password": token}}); err != nil {
		t.Fatal(err)
	}
	if err := j.Close(); err != nil {
		t.Fatal(err)
	}
	calls, err := Read(context.Background(), dir, Filter{})
	if err != nil || len(calls) != 1 || !journal.Masked(calls[0].Args) {
		t.Fatalf("Read = %+v, %v; want one call with a masked argument", calls, err)
	}
	return calls[0]
}

// A call whose journaled arguments hold masked secrets is skipped: it is
// never submitted with the tokens as its values.
func TestSkip(t *testing.T) {
	tool := &config.Tool{}
	for _, tt := range []struct {
		name string
		tool *config.Tool
		call journal.Call
		want string
	}{
		{"a masked argument", tool, maskedCall(t), "the journal masked its secret arguments"},
		{"a tool gone", nil, journal.Call{Args: map[string]any{"path": "x"}}, "the tool no longer exists"},
		{"a clean call", tool, journal.Call{Args: map[string]any{"path": "x"}}, ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if got := skip(tt.tool, tt.call); got != tt.want {
				t.Errorf("skip = %q, want %q", got, tt.want)
			}
		})
	}
}
