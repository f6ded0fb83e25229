package server

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/assent-sh/assent/exec"
	"github.com/assent-sh/assent/queue"
	"github.com/assent-sh/assent/server/servertest"
)

// callIn waits for a call with the status and returns its id.
func (f *fixture) callIn(status queue.Status) queue.ID {
	f.T.Helper()
	var id queue.ID
	servertest.WaitFor(f.T, "a call "+string(status), func() bool {
		for _, c := range f.Queue.Snapshot().Calls {
			if c.Status == status {
				id = c.ID
				return true
			}
		}
		return false
	})
	return id
}

func (f *fixture) pendingCall() queue.ID { return f.callIn(queue.Pending) }
func (f *fixture) runningCall() queue.ID { return f.callIn(queue.Running) }

func TestCallTool_Outcomes(t *testing.T) {
	stderr := func(s string) exec.Chunk { return exec.Chunk{Stream: exec.Stderr, Data: []byte(s), Time: time.Now()} }
	tests := []struct {
		name    string
		queue   func(o *queue.Options)
		expect  func(f *fixture)
		tool    string
		args    map[string]any
		operate func(f *fixture)
		isError bool
		text    string // the result's text starts with it
		exit    int    // the structured exit code, when not isError
	}{
		{name: "auto-approved", tool: "look", args: map[string]any{"what_thing": "a"},
			expect: func(f *fixture) { f.Runner.Expect("uname", "a").Stdout("hello\n") },
			text:   "hello\n[exit 0 · "},
		{name: "non-zero exit is a result", tool: "look", args: map[string]any{"what_thing": "b"},
			expect: func(f *fixture) {
				r := f.Runner.Expect("uname", "b").Stdout("out").Exit(2)
				r.Output = append(r.Output, stderr("bad thing\n"))
			},
			text: "out\nstderr:\nbad thing\n[exit 2 · ", exit: 2},
		{name: "denied by rule", tool: "burn", args: map[string]any{"x": "y"},
			isError: true, text: "denied by rule no-burn: never burn"},
		{name: "refused argument", tool: "look", args: map[string]any{"what_thing": "-rf"},
			isError: true, text: `tool "look": parameter "what_thing" starts with '-'`},
		{name: "unknown argument", tool: "look", args: map[string]any{"what_thing": "a", "extra": 1},
			isError: true, text: `tool "look": has no parameter "extra"`},
		{name: "timed out", tool: "look", args: map[string]any{"what_thing": "slow"},
			expect: func(f *fixture) {
				r := f.Runner.Expect("uname", "slow").Stdout("partial")
				r.Result = exec.Result{TimedOut: true, ExitCode: 143, Signal: "SIGTERM"}
			},
			isError: true, text: "timed out after 30s; partial output:\npartial\n[ended by SIGTERM · "},
		{name: "output over the cap with on_overflow kill", tool: "look", args: map[string]any{"what_thing": "flood"},
			expect: func(f *fixture) {
				f.Runner.Expect("uname", "flood").Result = exec.Result{OverflowKilled: true, ExitCode: 143, Signal: "SIGTERM",
					Stdout: exec.Output{Data: []byte("yyyy"), Bytes: 9000, Truncated: true}}
			},
			isError: true, text: "killed because its output passed the tool's cap of 4 bytes (on_overflow: kill); partial output:\nyyyy\n[ended by SIGTERM · 0ms · stdout truncated at 4 bytes of 8.8 KiB]"},
		{name: "could not start", tool: "look", args: map[string]any{"what_thing": "gone"},
			expect: func(f *fixture) {
				f.Runner.Expect("uname", "gone").Result = exec.Result{ExitCode: 127, StartError: "no such file or directory"}
			},
			isError: true, text: "could not start /usr/bin/uname: no such file or directory"},
		{name: "denied by the operator", tool: "change", args: map[string]any{"file": "f"},
			operate: func(f *fixture) {
				if err := f.Queue.Deny(f.pendingCall(), "not now"); err != nil {
					f.T.Error(err)
				}
			},
			isError: true, text: "denied by the operator: not now"},
		{name: "approved by the operator", tool: "change", args: map[string]any{"file": "f"},
			expect: func(f *fixture) { f.Runner.Expect("touch", "--", f.WorkDir+"/f") },
			operate: func(f *fixture) {
				if err := f.Queue.Approve(f.pendingCall()); err != nil {
					f.T.Error(err)
				}
			},
			text: "[exit 0 · "},
		{name: "edited by the operator", tool: "change", args: map[string]any{"file": "f"},
			expect: func(f *fixture) { f.Runner.Expect("touch", "--", "g") },
			operate: func(f *fixture) {
				if err := f.Queue.ApproveEdited(f.pendingCall(), []string{"touch", "--", "g"}, ""); err != nil {
					f.T.Error(err)
				}
			},
			text: "The operator edited the command before it ran; what ran: touch -- g\n[exit 0 · "},
		{name: "killed with no output", tool: "look", args: map[string]any{"what_thing": "quiet"},
			expect: func(f *fixture) { f.Runner.Expect("uname", "quiet").Hold = make(chan struct{}) },
			operate: func(f *fixture) {
				if err := f.Queue.Kill(f.runningCall()); err != nil {
					f.T.Error(err)
				}
			},
			isError: true, text: "killed by the operator; no output\n[ended by SIGTERM · "},
		{name: "headless asks become denials", tool: "change", args: map[string]any{"file": "f"},
			queue:   func(o *queue.Options) { o.Headless = true },
			isError: true, text: "denied: no approver is attached (headless): no rule matched"},
		{name: "killed by the operator", tool: "look", args: map[string]any{"what_thing": "long"},
			expect: func(f *fixture) { f.Runner.Expect("uname", "long").Stdout("so far\n").Hold = make(chan struct{}) },
			operate: func(f *fixture) {
				if err := f.Queue.Kill(f.runningCall()); err != nil {
					f.T.Error(err)
				}
			},
			isError: true, text: "killed by the operator; partial output:\nso far\n[ended by SIGTERM · "},
	}
	for _, era := range servertest.Eras() {
		t.Run(era.Name, func(t *testing.T) {
			for _, tc := range tests {
				t.Run(tc.name, func(t *testing.T) {
					f := newFixture(t, tc.queue)
					if tc.expect != nil {
						tc.expect(f)
					}
					c := f.inProcess(era.Options, nil)
					ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
					defer cancel()
					if tc.operate != nil {
						go tc.operate(f)
					}
					res, err := servertest.Call(ctx, c, tc.tool, tc.args, "")
					if err != nil {
						t.Fatal(err)
					}
					if res.IsError != tc.isError || !strings.HasPrefix(servertest.Text(res), tc.text) {
						t.Fatalf("isError %v, text %q; want %v, %q", res.IsError, servertest.Text(res), tc.isError, tc.text)
					}
					if !tc.isError {
						sc := structured(t, res)
						if sc.ExitCode != tc.exit || !strings.HasPrefix(tc.text, sc.Stdout) {
							t.Fatalf("structured %+v", sc)
						}
						if edit := strings.HasPrefix(tc.text, "The operator edited"); edit != (sc.Edited != nil) ||
							edit && (!slices.Equal(sc.Edited.Ran, []string{"touch", "--", "g"}) || sc.Edited.Asked[2] != f.WorkDir+"/f") {
							t.Fatalf("structured edited %+v", sc.Edited)
						}
					}
				})
			}
		})
	}
}

func TestCallTool_ClientAndSessionReachTheQueue(t *testing.T) {
	for _, era := range servertest.Eras() {
		t.Run(era.Name, func(t *testing.T) {
			f := newFixture(t, nil)
			f.Runner.Expect("uname", "a")
			c := f.inProcess(era.Options, nil)
			if _, err := servertest.Call(context.Background(), c, "look", map[string]any{"what_thing": "a"}, ""); err != nil {
				t.Fatal(err)
			}
			got, err := f.Queue.Call(1)
			if err != nil {
				t.Fatal(err)
			}
			if got.Client != "test-agent" || !strings.HasPrefix(got.Session, "inprocess-") || got.Origin != "mcp" {
				t.Fatalf("client %q session %q origin %q", got.Client, got.Session, got.Origin)
			}
		})
	}
}

func TestCallTool_OverTheRunningLimitIsRetryable(t *testing.T) {
	f := newFixture(t, func(o *queue.Options) { o.MaxRunning = 1 })
	hold := make(chan struct{})
	f.Runner.Expect("uname", "first").Hold = hold
	c := f.inProcess(nil, nil)
	first := make(chan error, 1)
	go func() {
		_, err := servertest.Call(context.Background(), c, "look", map[string]any{"what_thing": "first"}, "")
		first <- err
	}()
	f.runningCall()
	res, err := servertest.Call(context.Background(), c, "look", map[string]any{"what_thing": "second"}, "")
	if err != nil {
		t.Fatal(err)
	}
	if !res.IsError || servertest.Text(res) != "too many calls running (limit 1); retry shortly" {
		t.Fatalf("isError %v, text %q", res.IsError, servertest.Text(res))
	}
	close(hold)
	if err := <-first; err != nil {
		t.Fatal(err)
	}
}
