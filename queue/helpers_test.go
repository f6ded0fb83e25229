package queue_test

import (
	"os"
	"testing"

	"go.uber.org/goleak"

	"github.com/assent-sh/assent/journal"
	"github.com/assent-sh/assent/queue"
	"github.com/assent-sh/assent/queue/queuetest"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

// testTools are the tools every queue test can call: one read-only (auto
// approved by the rules below), one that asks, one a rule denies.
const testTools = `{
  "tools": [
    {"name": "look", "description": "read-only", "command": "uname {what}", "read_only": true},
    {"name": "change", "description": "asks", "command": "touch -- {file}", "params": {"token": {"secret": true}, "file": {"type": "path"}},
     "env": {"TOKEN": "{token}"}},
    {"name": "write", "description": "asks, no secrets", "command": "touch -- {file}", "params": {"file": {"type": "path"}}},
    {"name": "burn", "description": "denied", "command": "uname --burn {x}"},
    {"name": "unlock", "description": "asks", "command": "uname --pin={pin}",
     "params": {"pin": {"type": "integer", "max": 9999, "secret": true}}}
  ],
  "rules": [
    {"id": "read-only", "decision": "allow", "read_only": true, "reason": "read-only tool"},
    {"id": "no-burn", "decision": "deny", "tool": "burn", "reason": "never burn"}
  ]
}`

// newFixture is a queue over testTools, a real journal and a fake runner.
func newFixture(t *testing.T, change func(o *queue.Options)) *queuetest.Fixture {
	t.Helper()
	return queuetest.New(t, queuetest.Options{Tools: testTools, Queue: change})
}

func events(recs []journal.Record) []string {
	var out []string
	for _, r := range recs {
		s := string(r.Event)
		if r.Decision != "" {
			s += ":" + string(r.Decision) + "/" + string(r.Decider)
		}
		out = append(out, s)
	}
	return out
}

func fileExists(p string) bool {
	_, err := os.Stat(p)
	return err == nil
}
