package queue

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/assent-sh/assent/config"
	"github.com/assent-sh/assent/exec"
)

// nextEvent reads one event or fails after a while.
func nextEvent(t *testing.T, sub *Subscription) Event {
	t.Helper()
	select {
	case ev := <-sub.Events():
		return ev
	case <-time.After(5 * time.Second):
		t.Fatal("no event")
	}
	return Event{}
}

func TestSubmit_AutoApprovedRuns(t *testing.T) {
	f := newFixture(t, nil)
	f.runner.Expect("uname", "x").Stdout("Linux\n")
	sub := f.q.Subscribe()
	defer sub.Close()
	out, err := f.q.Submit(context.Background(), f.request("look", map[string]any{"what": "x"}))
	if err != nil {
		t.Fatal(err)
	}
	c := out.Call
	if c.Status != Done || c.Decider != ByRule || c.Decision.Rule != "read-only" || c.Result == nil ||
		string(c.Result.Stdout.Data) != "Linux\n" {
		t.Fatalf("outcome %+v", c)
	}
	var kinds []EventKind
	for len(kinds) < 4 {
		kinds = append(kinds, nextEvent(t, sub).Kind)
	}
	if want := []EventKind{EventDecided, EventStarted, EventOutput, EventFinished}; !reflect.DeepEqual(kinds, want) {
		t.Fatalf("events %v, want %v", kinds, want)
	}
	if got, want := events(f.records(c.ID)), []string{"received", "decided:allow/rule", "started", "finished"}; !reflect.DeepEqual(got, want) {
		t.Fatalf("journal %v, want %v", got, want)
	}
}

func TestSubmit_DeniedByRule(t *testing.T) {
	f := newFixture(t, nil)
	out, err := f.q.Submit(context.Background(), f.request("burn", map[string]any{"x": "y"}))
	if err != nil {
		t.Fatal(err)
	}
	if c := out.Call; c.Status != Denied || c.Decider != ByRule || c.Reason != "never burn" || c.Decision.Rule != "no-burn" {
		t.Fatalf("outcome %+v", c)
	}
	if got := events(f.records(out.Call.ID)); !reflect.DeepEqual(got, []string{"received", "decided:deny/rule"}) {
		t.Fatalf("journal %v", got)
	}
}

func TestSubmit_RefusedByValidation(t *testing.T) {
	f := newFixture(t, nil)
	out, err := f.q.Submit(context.Background(), f.request("look", map[string]any{"what": "--help"}))
	var ae *config.ArgError
	if !errors.As(err, &ae) || ae.Rule != "option" {
		t.Fatalf("err = %v", err)
	}
	if c := out.Call; c.Status != Refused || c.Decider != ByValidation || !strings.Contains(c.Reason, "starts with '-'") {
		t.Fatalf("outcome %+v", c)
	}
	if got := events(f.records(out.Call.ID)); !reflect.DeepEqual(got, []string{"received", "decided:deny/validation"}) {
		t.Fatalf("journal %v", got)
	}
}

func TestSubmit_AskThenApprove(t *testing.T) {
	f := newFixture(t, nil)
	f.runner.Expect("touch", "--", f.dir+"/a").Stdout("")
	sub := f.q.Subscribe()
	defer sub.Close()
	res := f.submitAsync(context.Background(), f.request("change", map[string]any{"file": "a", "token": "hunter2"}))
	ev := nextEvent(t, sub)
	if ev.Kind != EventPending || ev.Call.Status != Pending || ev.Call.Decision.Reason != "no rule matched" {
		t.Fatalf("first event %+v", ev)
	}
	if ev.Call.Hash != ev.Call.Command.Hash() || ev.Call.Hash == "" {
		t.Fatal("pending call carries no hash of its command")
	}
	if err := f.q.Approve(ev.Call.ID); err != nil {
		t.Fatal(err)
	}
	r := <-res
	if r.err != nil || r.out.Call.Status != Done || r.out.Call.Decider != ByOperator {
		t.Fatalf("outcome %+v, %v", r.out.Call, r.err)
	}
	if err := f.q.Deny(ev.Call.ID, "late"); err == nil {
		t.Fatal("a second decision was accepted")
	} else if re := (*ResolvedError)(nil); !errors.As(err, &re) || re.Status != Done || re.Decider != ByOperator {
		t.Fatalf("second decision: %v", err)
	}
	recs := f.records(ev.Call.ID)
	if got, want := events(recs), []string{"received", "decided:ask/rule", "decided:allow/operator", "started", "finished"}; !reflect.DeepEqual(got, want) {
		t.Fatalf("journal %v, want %v", got, want)
	}
	for _, rec := range recs {
		for _, kv := range rec.Env {
			if strings.Contains(kv, "hunter2") {
				t.Fatalf("secret reached the journal: %q", rec.Env)
			}
		}
	}
}

func TestSubmit_AskThenDenyWithReason(t *testing.T) {
	f := newFixture(t, nil)
	res := f.submitAsync(context.Background(), f.request("change", map[string]any{"file": "a", "token": "s3cr3t-token"}))
	id := f.waitStatus(1, Pending).ID
	if err := f.q.Deny(id, "not that file"); err != nil {
		t.Fatal(err)
	}
	r := <-res
	if c := r.out.Call; r.err != nil || c.Status != Denied || c.Decider != ByOperator || c.Reason != "not that file" {
		t.Fatalf("outcome %+v, %v", c, r.err)
	}
	if len(f.runner.Ran()) != 0 {
		t.Fatal("a denied call ran")
	}
}

func TestSubmit_ApproveEdited(t *testing.T) {
	f := newFixture(t, nil)
	f.runner.Expect("touch", "--", "/tmp/other")
	res := f.submitAsync(context.Background(), f.request("change", map[string]any{"file": "a", "token": "s3cr3t-token"}))
	id := f.waitStatus(1, Pending).ID
	if err := f.q.ApproveEdited(id, []string{}); err == nil {
		t.Fatal("empty edit accepted")
	}
	if err := f.q.ApproveEdited(id, []string{"touch", "a\x00b"}); err == nil || !strings.Contains(err.Error(), "NUL") {
		t.Fatalf("NUL edit: %v", err)
	}
	if err := f.q.ApproveEdited(id, []string{"no-such-program-xyz"}); err == nil || !strings.Contains(err.Error(), "not installed") {
		t.Fatalf("unresolvable edit: %v", err)
	}
	if err := f.q.ApproveEdited(id, []string{"touch", "--", "/tmp/other"}); err != nil {
		t.Fatal(err)
	}
	r := <-res
	c := r.out.Call
	if r.err != nil || c.Status != Done || c.Original == nil || c.Original.Argv[2] != f.dir+"/a" ||
		c.Command.Argv[2] != "/tmp/other" || c.Hash != c.Command.Hash() {
		t.Fatalf("outcome %+v, %v", c, r.err)
	}
	recs := f.records(id)
	if got, want := events(recs), []string{"received", "decided:ask/rule", "edited", "decided:allow/operator", "started", "finished"}; !reflect.DeepEqual(got, want) {
		t.Fatalf("journal %v, want %v", got, want)
	}
	if e := recs[2].Edit; e == nil || e.Before[2] != f.dir+"/a" || e.After[2] != "/tmp/other" {
		t.Fatalf("edit record %+v", recs[2])
	}
	if recs[4].CommandHash != c.Command.Hash() {
		t.Fatal("the started record does not carry the edited command's hash")
	}
}

func TestSubmit_ApproveRememberSession(t *testing.T) {
	f := newFixture(t, nil)
	f.runner.Expect("touch", "--", f.dir+"/a").Repeat = true
	args := map[string]any{"file": "a", "token": "s3cr3t-token"}
	res := f.submitAsync(context.Background(), f.request("change", args))
	id := f.waitStatus(1, Pending).ID
	rule, err := f.q.Narrowest(id)
	if err != nil {
		t.Fatal(err)
	}
	if err := f.q.ApproveRemember(id, rule, false); err != nil {
		t.Fatal(err)
	}
	if r := <-res; r.out.Call.Status != Done {
		t.Fatalf("first call %+v", r.out.Call)
	}
	out, err := f.q.Submit(context.Background(), f.request("change", args))
	if err != nil || out.Call.Status != Done || out.Call.Decider != ByRule || out.Call.Decision.Remembered != "session" {
		t.Fatalf("second call %+v, %v", out.Call, err)
	}
	// Other values are not covered.
	res = f.submitAsync(context.Background(), f.request("change", map[string]any{"file": "b", "token": "s3cr3t-token"}))
	f.waitStatus(out.Call.ID+1, Pending)
	if err := f.q.Deny(out.Call.ID+1, ""); err != nil {
		t.Fatal(err)
	}
	<-res
}

func TestSubmit_ApprovalTimeout(t *testing.T) {
	f := newFixture(t, func(o *Options) { o.ApprovalTimeout = 30 * time.Millisecond })
	out, err := f.q.Submit(context.Background(), f.request("change", map[string]any{"file": "a", "token": "s3cr3t-token"}))
	if c := out.Call; err != nil || c.Status != Denied || c.Decider != ByTimeout || !strings.Contains(c.Reason, "no operator decision within 30ms") {
		t.Fatalf("outcome %+v, %v", c, err)
	}
	if got := events(f.records(out.Call.ID)); !reflect.DeepEqual(got, []string{"received", "decided:ask/rule", "decided:deny/timeout"}) {
		t.Fatalf("journal %v", got)
	}
}

func TestSubmit_Headless(t *testing.T) {
	f := newFixture(t, func(o *Options) { o.Headless = true })
	out, err := f.q.Submit(context.Background(), f.request("change", map[string]any{"file": "a", "token": "s3cr3t-token"}))
	if c := out.Call; err != nil || c.Status != Denied || c.Decider != ByHeadless || !strings.Contains(c.Reason, "no approver is attached (headless)") {
		t.Fatalf("outcome %+v, %v", c, err)
	}
}

func TestSubmit_ClientCancelsWhilePending(t *testing.T) {
	f := newFixture(t, nil)
	ctx, cancel := context.WithCancel(context.Background())
	res := f.submitAsync(ctx, f.request("change", map[string]any{"file": "a", "token": "s3cr3t-token"}))
	id := f.waitStatus(1, Pending).ID
	cancel()
	r := <-res
	if c := r.out.Call; r.err != nil || c.Status != Cancelled || c.Decider != ByClient {
		t.Fatalf("outcome %+v, %v", c, r.err)
	}
	var re *ResolvedError
	if err := f.q.Approve(id); !errors.As(err, &re) || re.Status != Cancelled {
		t.Fatalf("approve after cancel: %v", err)
	}
	if snap := f.q.Snapshot(); snap.Calls[0].Status != Cancelled {
		t.Fatalf("snapshot %+v", snap.Calls[0])
	}
}

func TestSubmit_ClientCancelsWhileRunning(t *testing.T) {
	f := newFixture(t, nil)
	run := f.runner.Expect("uname", "x")
	run.Hold, run.Started = make(chan struct{}), make(chan struct{})
	ctx, cancel := context.WithCancel(context.Background())
	res := f.submitAsync(ctx, f.request("look", map[string]any{"what": "x"}))
	<-run.Started
	cancel()
	r := <-res
	if c := r.out.Call; r.err != nil || c.Status != Done || !c.Result.Cancelled {
		t.Fatalf("outcome %+v, %v", c, r.err)
	}
}

func TestKill_RunningCall(t *testing.T) {
	f := newFixture(t, nil)
	run := f.runner.Expect("uname", "x")
	run.Hold, run.Started = make(chan struct{}), make(chan struct{})
	res := f.submitAsync(context.Background(), f.request("look", map[string]any{"what": "x"}))
	<-run.Started
	if err := f.q.Kill(1); err != nil {
		t.Fatal(err)
	}
	r := <-res
	if c := r.out.Call; c.Status != Done || !c.Killed || !c.Result.Cancelled {
		t.Fatalf("outcome %+v", c)
	}
	recs := f.records(1)
	if last := recs[len(recs)-1]; last.Event != "finished" || last.Reason != "killed by the operator" {
		t.Fatalf("finished record %+v", last)
	}
	if err := f.q.Kill(1); err == nil {
		t.Fatal("killing an ended call succeeded")
	}
	if err := f.q.Kill(99); !errors.Is(err, ErrUnknownCall) {
		t.Fatalf("kill unknown: %v", err)
	}
}

func TestSubmit_FrozenCommand(t *testing.T) {
	f := newFixture(t, nil)
	f.runner.Expect("uname", "x").Repeat = true
	out, err := f.q.Submit(context.Background(), f.request("look", map[string]any{"what": "x"}))
	if err != nil {
		t.Fatal(err)
	}
	// A command that differs from the one approved is not started.
	e := f.q.insert(Call{ID: 1000, Hash: out.Call.Hash, Status: Approved}, nil)
	other := out.Call.Command
	other.Argv = []string{"uname", "y"}
	f.q.slots <- struct{}{}
	f.q.wg.Add(1)
	defer f.q.wg.Done()
	if _, err := f.q.run(context.Background(), e, other); err == nil || !strings.Contains(err.Error(), "differs from the command approved") {
		t.Fatalf("changed command: %v", err)
	}
	for _, c := range f.runner.Ran() {
		if c.Argv[1] == "y" {
			t.Fatal("the changed command ran")
		}
	}
}

func TestSubmit_JournalFailureRefusesNewCalls(t *testing.T) {
	f := newFixture(t, nil)
	if err := f.journal.Close(); err != nil {
		t.Fatal(err)
	}
	_, err := f.q.Submit(context.Background(), f.request("look", map[string]any{"what": "x"}))
	var je *JournalError
	if !errors.As(err, &je) || !strings.Contains(err.Error(), "the journal failed") {
		t.Fatalf("err = %v", err)
	}
	if len(f.runner.Ran()) != 0 {
		t.Fatal("a call ran without a journal")
	}
}

func TestClose_DeniesPendingAndKillsRunning(t *testing.T) {
	f := newFixture(t, nil)
	run := f.runner.Expect("uname", "x")
	run.Hold, run.Started = make(chan struct{}), make(chan struct{})
	running := f.submitAsync(context.Background(), f.request("look", map[string]any{"what": "x"}))
	<-run.Started
	pending := f.submitAsync(context.Background(), f.request("change", map[string]any{"file": "a", "token": "s3cr3t-token"}))
	f.waitStatus(2, Pending)
	if err := f.q.Close(context.Background(), "console closed"); err != nil {
		t.Fatal(err)
	}
	if r := <-pending; r.out.Call.Status != Denied || r.out.Call.Reason != "console closed" || r.out.Call.Decider != ByShutdown {
		t.Fatalf("pending call %+v", r.out.Call)
	}
	if r := <-running; !r.out.Call.Result.Cancelled {
		t.Fatalf("running call %+v", r.out.Call)
	}
	if _, err := f.q.Submit(context.Background(), f.request("look", map[string]any{"what": "x"})); !errors.Is(err, ErrClosed) {
		t.Fatalf("submit after close: %v", err)
	}
}

func TestLimits(t *testing.T) {
	f := newFixture(t, func(o *Options) { o.MaxRunning, o.MaxPending = 1, 1 })
	run := f.runner.Expect("uname", "x")
	run.Hold, run.Started = make(chan struct{}), make(chan struct{})
	first := f.submitAsync(context.Background(), f.request("look", map[string]any{"what": "x"}))
	<-run.Started
	_, err := f.q.Submit(context.Background(), f.request("look", map[string]any{"what": "x"}))
	var le *LimitError
	if !errors.As(err, &le) || le.What != "running" || !le.Temporary() {
		t.Fatalf("second running call: %v", err)
	}
	if got := events(f.records(2)); !reflect.DeepEqual(got, []string{"received", "decided:deny/limit"}) {
		t.Fatalf("journal of the refused call %v", got)
	}
	pending := f.submitAsync(context.Background(), f.request("change", map[string]any{"file": "a", "token": "s3cr3t-token"}))
	f.waitStatus(3, Pending)
	_, err = f.q.Submit(context.Background(), f.request("change", map[string]any{"file": "b", "token": "s3cr3t-token"}))
	if !errors.As(err, &le) || le.What != "waiting for approval" || !strings.Contains(err.Error(), "retry shortly") {
		t.Fatalf("second pending call: %v", err)
	}
	// An approved call waits for a running slot instead of failing.
	f.runner.Expect("touch", "--", f.dir+"/a")
	if err := f.q.Approve(3); err != nil {
		t.Fatal(err)
	}
	time.Sleep(10 * time.Millisecond)
	if c, _ := f.q.Call(3); c.Status != Approved {
		t.Fatalf("approved call did not wait for the slot: %s", c.Status)
	}
	close(run.Hold)
	<-first
	if r := <-pending; r.out.Call.Status != Done {
		t.Fatalf("approved call %+v", r.out.Call)
	}
}

var _ = exec.Stdout

func TestApproveRemember_AlwaysRefusesSecretValues(t *testing.T) {
	f := newFixture(t, nil)
	f.runner.Expect("touch", "--", f.dir+"/a")
	res := f.submitAsync(context.Background(), f.request("change", map[string]any{"file": "a", "token": "s3cr3t-token"}))
	id := f.waitStatus(1, Pending).ID
	rule, err := f.q.Narrowest(id)
	if err != nil {
		t.Fatal(err)
	}
	if err := f.q.ApproveRemember(id, rule, true); err == nil || !strings.Contains(err.Error(), "secret parameter") {
		t.Fatalf("always with a secret value: %v", err)
	}
	// A secret that JSON escapes is found too.
	res2 := f.submitAsync(context.Background(), f.request("change", map[string]any{"file": "b", "token": `hun"ter\2`}))
	id2 := f.waitStatus(2, Pending).ID
	rule2, err := f.q.Narrowest(id2)
	if err != nil {
		t.Fatal(err)
	}
	if err := f.q.ApproveRemember(id2, rule2, true); err == nil || !strings.Contains(err.Error(), "secret parameter") {
		t.Fatalf("always with an escaped secret value: %v", err)
	}
	if err := f.q.Deny(id2, ""); err != nil {
		t.Fatal(err)
	}
	<-res2
	if c, _ := f.q.Call(id); c.Status != Pending {
		t.Fatalf("the refused remember settled the call: %s", c.Status)
	}
	wide, err := rule.WidenArg("token", "*")
	if err != nil {
		t.Fatal(err)
	}
	if err := f.q.ApproveRemember(id, wide, true); err != nil {
		t.Fatal(err)
	}
	if r := <-res; r.out.Call.Status != Done {
		t.Fatalf("call %+v", r.out.Call)
	}
	data, err := os.ReadFile(filepath.Join(f.dir, "state", "remembered.json"))
	if err != nil || strings.Contains(string(data), "s3cr3t-token") || !strings.Contains(string(data), `"token"`) {
		t.Fatalf("remembered file %q (%v)", data, err)
	}
}

func TestSubmit_RefusedSecretNumberIsNotJournaled(t *testing.T) {
	f := newFixture(t, nil)
	for _, pin := range []any{271828.0, json.Number("271828"), "271828"} {
		_, err := f.q.Submit(context.Background(), f.request("unlock", map[string]any{"pin": pin}))
		if err == nil || strings.Contains(err.Error(), "271828") {
			t.Fatalf("refusal %v repeats the secret", err)
		}
	}
	data, err := os.ReadFile(f.journal.Path())
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(data), "271828") {
		t.Fatalf("the journal holds the secret:\n%s", data)
	}
	if !strings.Contains(string(data), "‹secret:") {
		t.Fatal("the journal does not show the masked argument at all")
	}
}
