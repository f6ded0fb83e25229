package queue_test

import (
	"context"
	"strings"
	"sync"
	"testing"

	"github.com/assent-sh/assent/queue"
	"github.com/assent-sh/assent/queue/queuetest"
)

// eventLog collects what a Watcher receives.
type eventLog struct {
	mu  sync.Mutex
	got []string
}

func (l *eventLog) watch(ev queue.Event) {
	s := string(ev.Kind) + ":" + string(ev.Call.Status)
	if ev.Output != nil {
		s += ":" + string(ev.Output.Data)
	}
	l.mu.Lock()
	l.got = append(l.got, s)
	l.mu.Unlock()
}

func (l *eventLog) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return strings.Join(l.got, " ")
}

func TestWatch_SeesOnlyItsOwnCallInOrder(t *testing.T) {
	tests := []struct {
		name   string
		tool   string
		args   map[string]any
		decide func(f *queuetest.Fixture)
		want   string
	}{
		{name: "auto-approved run with output", tool: "look", args: map[string]any{"what": "a"},
			want: "decided:approved started:running output:running:out-a finished:done"},
		{name: "denied by rule", tool: "burn", args: map[string]any{"x": "y"},
			want: "decided:denied"},
		{name: "refused arguments", tool: "look", args: map[string]any{"what": "-x"},
			want: "decided:refused"},
		{name: "asked then approved by the operator", tool: "change", args: map[string]any{"file": "f", "token": "t"},
			decide: func(f *queuetest.Fixture) { f.WaitStatus(2, queue.Pending); _ = f.Queue.Approve(2) },
			want:   "pending:pending decided:approved started:running finished:done"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			f := newFixture(t, nil)
			f.Runner.Expect("uname", "other").Stdout("out-other")
			// A call watched by nobody runs first, so a leak of its
			// events into the watched call's log would show.
			if _, err := f.Queue.Submit(context.Background(), f.Request("look", map[string]any{"what": "other"})); err != nil {
				t.Fatal(err)
			}
			switch tc.tool {
			case "look":
				if tc.args["what"] == "a" {
					f.Runner.Expect("uname", "a").Stdout("out-a")
				}
			case "change":
				f.Runner.Expect("touch", "--", f.WorkDir+"/f")
			}
			var log eventLog
			req := f.Request(tc.tool, tc.args)
			req.Watch = log.watch
			done := f.SubmitAsync(context.Background(), req)
			if tc.decide != nil {
				tc.decide(f)
			}
			<-done
			if got := log.String(); got != tc.want {
				t.Fatalf("events %q, want %q", got, tc.want)
			}
		})
	}
}
