package queue

import (
	"context"
	"strings"
	"sync"
	"testing"
)

// eventLog collects what a Watcher receives.
type eventLog struct {
	mu  sync.Mutex
	got []string
}

func (l *eventLog) watch(ev Event) {
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
		decide func(f *fixture)
		want   string
	}{
		{name: "auto-approved run with output", tool: "look", args: map[string]any{"what": "a"},
			want: "decided:approved started:running output:running:out-a finished:done"},
		{name: "denied by rule", tool: "burn", args: map[string]any{"x": "y"},
			want: "decided:denied"},
		{name: "refused arguments", tool: "look", args: map[string]any{"what": "-x"},
			want: "decided:refused"},
		{name: "asked then approved by the operator", tool: "change", args: map[string]any{"file": "f", "token": "t"},
			decide: func(f *fixture) { f.waitStatus(2, Pending); _ = f.q.Approve(2) },
			want:   "pending:pending decided:approved started:running finished:done"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			f := newFixture(t, nil)
			f.runner.Expect("uname", "other").Stdout("out-other")
			// A call watched by nobody runs first, so a leak of its
			// events into the watched call's log would show.
			if _, err := f.q.Submit(context.Background(), f.request("look", map[string]any{"what": "other"})); err != nil {
				t.Fatal(err)
			}
			switch tc.tool {
			case "look":
				if tc.args["what"] == "a" {
					f.runner.Expect("uname", "a").Stdout("out-a")
				}
			case "change":
				f.runner.Expect("touch", "--", f.dir+"/f")
			}
			var log eventLog
			req := f.request(tc.tool, tc.args)
			req.Watch = log.watch
			done := f.submitAsync(context.Background(), req)
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
