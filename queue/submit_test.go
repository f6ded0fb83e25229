package queue_test

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/assent-sh/assent/config"
	"github.com/assent-sh/assent/exec"
	"github.com/assent-sh/assent/queue"
	"github.com/assent-sh/assent/queue/queuetest"
)

// nextEvent reads one event or fails after a while.
func nextEvent(t *testing.T, sub *queue.Subscription) queue.Event {
	t.Helper()
	select {
	case ev := <-sub.Events():
		return ev
	case <-time.After(5 * time.Second):
		t.Fatal("no event")
	}
	return queue.Event{}
}

func TestSubmit_AutoApprovedRuns(t *testing.T) {
	f := newFixture(t, nil)
	f.Runner.Expect("uname", "x").Stdout("Linux\n")
	sub := f.Queue.Subscribe()
	defer sub.Close()
	out, err := f.Queue.Submit(context.Background(), f.Request("look", map[string]any{"what": "x"}))
	if err != nil {
		t.Fatal(err)
	}
	c := out.Call
	if c.Status != queue.Done || c.Decider != queue.ByRule || c.Decision.Rule != "read-only" || c.Result == nil ||
		string(c.Result.Stdout.Data) != "Linux\n" {
		t.Fatalf("outcome %+v", c)
	}
	var kinds []queue.EventKind
	for len(kinds) < 4 {
		kinds = append(kinds, nextEvent(t, sub).Kind)
	}
	if want := []queue.EventKind{queue.EventDecided, queue.EventStarted, queue.EventOutput, queue.EventFinished}; !reflect.DeepEqual(kinds, want) {
		t.Fatalf("events %v, want %v", kinds, want)
	}
	if got, want := events(f.Records(c.ID)), []string{"received", "decided:allow/rule", "started", "finished"}; !reflect.DeepEqual(got, want) {
		t.Fatalf("journal %v, want %v", got, want)
	}
}

func TestSubmit_DeniedByRule(t *testing.T) {
	f := newFixture(t, nil)
	out, err := f.Queue.Submit(context.Background(), f.Request("burn", map[string]any{"x": "y"}))
	if err != nil {
		t.Fatal(err)
	}
	if c := out.Call; c.Status != queue.Denied || c.Decider != queue.ByRule || c.Reason != "never burn" || c.Decision.Rule != "no-burn" {
		t.Fatalf("outcome %+v", c)
	}
	if got := events(f.Records(out.Call.ID)); !reflect.DeepEqual(got, []string{"received", "decided:deny/rule"}) {
		t.Fatalf("journal %v", got)
	}
}

func TestSubmit_RefusedByValidation(t *testing.T) {
	f := newFixture(t, nil)
	out, err := f.Queue.Submit(context.Background(), f.Request("look", map[string]any{"what": "--help"}))
	var ae *config.ArgError
	if !errors.As(err, &ae) || ae.Rule != "option" {
		t.Fatalf("err = %v", err)
	}
	if c := out.Call; c.Status != queue.Refused || c.Decider != queue.ByValidation || !strings.Contains(c.Reason, "starts with '-'") {
		t.Fatalf("outcome %+v", c)
	}
	if got := events(f.Records(out.Call.ID)); !reflect.DeepEqual(got, []string{"received", "decided:deny/validation"}) {
		t.Fatalf("journal %v", got)
	}
}

func TestSubmit_AskThenApprove(t *testing.T) {
	f := newFixture(t, nil)
	f.Runner.Expect("touch", "--", f.WorkDir+"/a").Stdout("")
	sub := f.Queue.Subscribe()
	defer sub.Close()
	res := f.SubmitAsync(context.Background(), f.Request("change", map[string]any{"file": "a", "token": "hunter2"}))
	ev := nextEvent(t, sub)
	if ev.Kind != queue.EventPending || ev.Call.Status != queue.Pending || ev.Call.Decision.Reason != "no rule matched" {
		t.Fatalf("first event %+v", ev)
	}
	if ev.Call.Hash != ev.Call.Command.Hash() || ev.Call.Hash == "" {
		t.Fatal("pending call carries no hash of its command")
	}
	if err := f.Queue.Approve(ev.Call.ID); err != nil {
		t.Fatal(err)
	}
	r := <-res
	if r.Err != nil || r.Out.Call.Status != queue.Done || r.Out.Call.Decider != queue.ByOperator {
		t.Fatalf("outcome %+v, %v", r.Out.Call, r.Err)
	}
	if err := f.Queue.Deny(ev.Call.ID, "late"); err == nil {
		t.Fatal("a second decision was accepted")
	} else if re := (*queue.ResolvedError)(nil); !errors.As(err, &re) || re.Status != queue.Done || re.Decider != queue.ByOperator {
		t.Fatalf("second decision: %v", err)
	}
	recs := f.Records(ev.Call.ID)
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
	res := f.SubmitAsync(context.Background(), f.Request("change", map[string]any{"file": "a", "token": "s3cr3t-token"}))
	id := f.WaitStatus(1, queue.Pending).ID
	if err := f.Queue.Deny(id, "not that file"); err != nil {
		t.Fatal(err)
	}
	r := <-res
	if c := r.Out.Call; r.Err != nil || c.Status != queue.Denied || c.Decider != queue.ByOperator || c.Reason != "not that file" {
		t.Fatalf("outcome %+v, %v", c, r.Err)
	}
	if len(f.Runner.Ran()) != 0 {
		t.Fatal("a denied call ran")
	}
}

func TestSubmit_ApproveEdited(t *testing.T) {
	f := newFixture(t, nil)
	f.Runner.Expect("touch", "--", "/tmp/other")
	res := f.SubmitAsync(context.Background(), f.Request("write", map[string]any{"file": "a"}))
	id := f.WaitStatus(1, queue.Pending).ID
	if err := f.Queue.ApproveEdited(id, []string{}, ""); err == nil {
		t.Fatal("empty edit accepted")
	}
	if err := f.Queue.ApproveEdited(id, []string{"touch", "a\x00b"}, ""); err == nil || !strings.Contains(err.Error(), "NUL") {
		t.Fatalf("NUL edit: %v", err)
	}
	if err := f.Queue.ApproveEdited(id, []string{"no-such-program-xyz"}, ""); err == nil || !strings.Contains(err.Error(), "not installed") {
		t.Fatalf("unresolvable edit: %v", err)
	}
	if err := f.Queue.ApproveEdited(id, []string{"touch", "--", "/tmp/other"}, ""); err != nil {
		t.Fatal(err)
	}
	r := <-res
	c := r.Out.Call
	if r.Err != nil || c.Status != queue.Done || c.Original == nil || c.Original.Argv[2] != f.WorkDir+"/a" ||
		c.Command.Argv[2] != "/tmp/other" || c.Hash != c.Command.Hash() {
		t.Fatalf("outcome %+v, %v", c, r.Err)
	}
	recs := f.Records(id)
	if got, want := events(recs), []string{"received", "decided:ask/rule", "edited", "decided:allow/operator", "started", "finished"}; !reflect.DeepEqual(got, want) {
		t.Fatalf("journal %v, want %v", got, want)
	}
	if e := recs[2].Edit; e == nil || e.Before[2] != f.WorkDir+"/a" || e.After[2] != "/tmp/other" {
		t.Fatalf("edit record %+v", recs[2])
	}
	if recs[4].CommandHash != c.Command.Hash() {
		t.Fatal("the started record does not carry the edited command's hash")
	}
}

func TestSubmit_ApproveRememberSession(t *testing.T) {
	f := newFixture(t, nil)
	f.Runner.Expect("touch", "--", f.WorkDir+"/a").Repeat = true
	args := map[string]any{"file": "a", "token": "s3cr3t-token"}
	res := f.SubmitAsync(context.Background(), f.Request("change", args))
	id := f.WaitStatus(1, queue.Pending).ID
	rule, err := f.Queue.Narrowest(id)
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Queue.ApproveRemember(id, rule, false); err != nil {
		t.Fatal(err)
	}
	if r := <-res; r.Out.Call.Status != queue.Done {
		t.Fatalf("first call %+v", r.Out.Call)
	}
	out, err := f.Queue.Submit(context.Background(), f.Request("change", args))
	if err != nil || out.Call.Status != queue.Done || out.Call.Decider != queue.ByRule || out.Call.Decision.Remembered != "session" {
		t.Fatalf("second call %+v, %v", out.Call, err)
	}
	// Other values are not covered.
	res = f.SubmitAsync(context.Background(), f.Request("change", map[string]any{"file": "b", "token": "s3cr3t-token"}))
	f.WaitStatus(out.Call.ID+1, queue.Pending)
	if err := f.Queue.Deny(out.Call.ID+1, ""); err != nil {
		t.Fatal(err)
	}
	<-res
}

func TestSubmit_ApprovalTimeout(t *testing.T) {
	f := newFixture(t, func(o *queue.Options) { o.ApprovalTimeout = 30 * time.Millisecond })
	out, err := f.Queue.Submit(context.Background(), f.Request("change", map[string]any{"file": "a", "token": "s3cr3t-token"}))
	if c := out.Call; err != nil || c.Status != queue.Denied || c.Decider != queue.ByTimeout || !strings.Contains(c.Reason, "no operator decision within 30ms") {
		t.Fatalf("outcome %+v, %v", c, err)
	}
	if got := events(f.Records(out.Call.ID)); !reflect.DeepEqual(got, []string{"received", "decided:ask/rule", "decided:deny/timeout"}) {
		t.Fatalf("journal %v", got)
	}
}

func TestSubmit_Headless(t *testing.T) {
	f := newFixture(t, func(o *queue.Options) { o.Headless = true })
	out, err := f.Queue.Submit(context.Background(), f.Request("change", map[string]any{"file": "a", "token": "s3cr3t-token"}))
	if c := out.Call; err != nil || c.Status != queue.Denied || c.Decider != queue.ByHeadless || !strings.Contains(c.Reason, "no approver is attached (headless)") {
		t.Fatalf("outcome %+v, %v", c, err)
	}
}

func TestSubmit_ClientCancelsWhilePending(t *testing.T) {
	f := newFixture(t, nil)
	ctx, cancel := context.WithCancel(context.Background())
	res := f.SubmitAsync(ctx, f.Request("change", map[string]any{"file": "a", "token": "s3cr3t-token"}))
	id := f.WaitStatus(1, queue.Pending).ID
	cancel()
	r := <-res
	if c := r.Out.Call; r.Err != nil || c.Status != queue.Cancelled || c.Decider != queue.ByClient {
		t.Fatalf("outcome %+v, %v", c, r.Err)
	}
	var re *queue.ResolvedError
	if err := f.Queue.Approve(id); !errors.As(err, &re) || re.Status != queue.Cancelled {
		t.Fatalf("approve after cancel: %v", err)
	}
	if snap := f.Queue.Snapshot(); snap.Calls[0].Status != queue.Cancelled {
		t.Fatalf("snapshot %+v", snap.Calls[0])
	}
}

func TestSubmit_ClientCancelsWhileRunning(t *testing.T) {
	f := newFixture(t, nil)
	run := f.Runner.Expect("uname", "x")
	run.Hold, run.Started = make(chan struct{}), make(chan struct{})
	ctx, cancel := context.WithCancel(context.Background())
	res := f.SubmitAsync(ctx, f.Request("look", map[string]any{"what": "x"}))
	<-run.Started
	cancel()
	r := <-res
	if c := r.Out.Call; r.Err != nil || c.Status != queue.Done || !c.Result.Cancelled {
		t.Fatalf("outcome %+v, %v", c, r.Err)
	}
}

func TestKill_RunningCall(t *testing.T) {
	f := newFixture(t, nil)
	run := f.Runner.Expect("uname", "x")
	run.Hold, run.Started = make(chan struct{}), make(chan struct{})
	res := f.SubmitAsync(context.Background(), f.Request("look", map[string]any{"what": "x"}))
	<-run.Started
	if err := f.Queue.Kill(1); err != nil {
		t.Fatal(err)
	}
	r := <-res
	if c := r.Out.Call; c.Status != queue.Done || !c.Killed || !c.Result.Cancelled {
		t.Fatalf("outcome %+v", c)
	}
	recs := f.Records(1)
	if last := recs[len(recs)-1]; last.Event != "finished" || last.Reason != "killed by the operator" {
		t.Fatalf("finished record %+v", last)
	}
	if err := f.Queue.Kill(1); err == nil {
		t.Fatal("killing an ended call succeeded")
	}
	if err := f.Queue.Kill(99); !errors.Is(err, queue.ErrUnknownCall) {
		t.Fatalf("kill unknown: %v", err)
	}
}

// What runs is exactly the command shown and hashed when the call was
// decided: the runner receives that command, the journal's records carry
// its hash, and an operator's edit is a new command with a hash of its own.
func TestSubmit_FrozenCommand(t *testing.T) {
	f := newFixture(t, nil)
	f.Runner.Expect("uname", "x")
	out, err := f.Queue.Submit(context.Background(), f.Request("look", map[string]any{"what": "x"}))
	if err != nil {
		t.Fatal(err)
	}
	ran := f.Runner.Ran()
	if len(ran) != 1 || ran[0].Hash() != out.Call.Hash || out.Call.Command.Hash() != out.Call.Hash {
		t.Fatalf("ran %v, want exactly the approved command (hash %s)", ran, out.Call.Hash)
	}
	for _, r := range f.Records(out.Call.ID) {
		if r.CommandHash != "" && r.CommandHash != out.Call.Hash {
			t.Errorf("%s record has hash %s, want %s", r.Event, r.CommandHash, out.Call.Hash)
		}
	}

	f.Runner.Expect("touch", "--", "edited")
	res := f.SubmitAsync(context.Background(), f.Request("write", map[string]any{"file": "a"}))
	c := f.WaitPending()
	if err := f.Queue.ApproveEdited(c.ID, []string{"touch", "--", "edited"}, ""); err != nil {
		t.Fatal(err)
	}
	r := <-res
	edited := r.Out.Call
	if edited.Hash == c.Hash || edited.Hash != edited.Command.Hash() || edited.Original == nil || edited.Original.Hash() != c.Hash {
		t.Fatalf("edited call: hash %s (shown %s), original %v", edited.Hash, c.Hash, edited.Original)
	}
	if ran := f.Runner.Ran(); ran[len(ran)-1].Hash() != edited.Hash {
		t.Errorf("ran %v, want the edited command", ran[len(ran)-1])
	}
}

func TestSubmit_JournalFailureRefusesNewCalls(t *testing.T) {
	f := newFixture(t, nil)
	if err := f.Journal.Close(); err != nil {
		t.Fatal(err)
	}
	_, err := f.Queue.Submit(context.Background(), f.Request("look", map[string]any{"what": "x"}))
	var je *queue.JournalError
	if !errors.As(err, &je) || !strings.Contains(err.Error(), "the journal failed") {
		t.Fatalf("err = %v", err)
	}
	if len(f.Runner.Ran()) != 0 {
		t.Fatal("a call ran without a journal")
	}
}

func TestClose_DeniesPendingAndKillsRunning(t *testing.T) {
	f := newFixture(t, nil)
	run := f.Runner.Expect("uname", "x")
	run.Hold, run.Started = make(chan struct{}), make(chan struct{})
	running := f.SubmitAsync(context.Background(), f.Request("look", map[string]any{"what": "x"}))
	<-run.Started
	pending := f.SubmitAsync(context.Background(), f.Request("change", map[string]any{"file": "a", "token": "s3cr3t-token"}))
	f.WaitStatus(2, queue.Pending)
	if err := f.Queue.Close(context.Background(), "console closed"); err != nil {
		t.Fatal(err)
	}
	if r := <-pending; r.Out.Call.Status != queue.Denied || r.Out.Call.Reason != "console closed" || r.Out.Call.Decider != queue.ByShutdown {
		t.Fatalf("pending call %+v", r.Out.Call)
	}
	if r := <-running; !r.Out.Call.Result.Cancelled {
		t.Fatalf("running call %+v", r.Out.Call)
	}
	if _, err := f.Queue.Submit(context.Background(), f.Request("look", map[string]any{"what": "x"})); !errors.Is(err, queue.ErrClosed) {
		t.Fatalf("submit after close: %v", err)
	}
}

func TestLimits(t *testing.T) {
	f := newFixture(t, func(o *queue.Options) { o.MaxRunning, o.MaxPending = 1, 1 })
	run := f.Runner.Expect("uname", "x")
	run.Hold, run.Started = make(chan struct{}), make(chan struct{})
	first := f.SubmitAsync(context.Background(), f.Request("look", map[string]any{"what": "x"}))
	<-run.Started
	_, err := f.Queue.Submit(context.Background(), f.Request("look", map[string]any{"what": "x"}))
	var le *queue.LimitError
	if !errors.As(err, &le) || le.What != "running" || !le.Temporary() {
		t.Fatalf("second running call: %v", err)
	}
	if got := events(f.Records(2)); !reflect.DeepEqual(got, []string{"received", "decided:deny/limit"}) {
		t.Fatalf("journal of the refused call %v", got)
	}
	pending := f.SubmitAsync(context.Background(), f.Request("change", map[string]any{"file": "a", "token": "s3cr3t-token"}))
	f.WaitStatus(3, queue.Pending)
	_, err = f.Queue.Submit(context.Background(), f.Request("change", map[string]any{"file": "b", "token": "s3cr3t-token"}))
	if !errors.As(err, &le) || le.What != "waiting for approval" || !strings.Contains(err.Error(), "retry shortly") {
		t.Fatalf("second pending call: %v", err)
	}
	// An approved call waits for a running slot instead of failing, and
	// starts only once the slot is free.
	second := f.Runner.Expect("touch", "--", f.WorkDir+"/a")
	second.Started = make(chan struct{})
	startedAt := make(chan time.Time, 1)
	go func() { <-second.Started; startedAt <- time.Now() }()
	if err := f.Queue.Approve(3); err != nil {
		t.Fatal(err)
	}
	f.WaitStatus(3, queue.Approved)
	freed := time.Now()
	close(run.Hold)
	<-first
	if r := <-pending; r.Out.Call.Status != queue.Done {
		t.Fatalf("approved call %+v", r.Out.Call)
	}
	if at := <-startedAt; at.Before(freed) {
		t.Errorf("the approved call started %v before the running slot was free", freed.Sub(at))
	}
}

var _ = exec.Stdout

func TestApproveRemember_AlwaysRefusesSecretValues(t *testing.T) {
	f := newFixture(t, nil)
	f.Runner.Expect("touch", "--", f.WorkDir+"/a")
	res := f.SubmitAsync(context.Background(), f.Request("change", map[string]any{"file": "a", "token": "s3cr3t-token"}))
	id := f.WaitStatus(1, queue.Pending).ID
	rule, err := f.Queue.Narrowest(id)
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Queue.ApproveRemember(id, rule, true); err == nil || !strings.Contains(err.Error(), "secret parameter") {
		t.Fatalf("always with a secret value: %v", err)
	}
	// A secret that JSON escapes is found too, however the rule's text
	// escapes it: quotes and backslashes, and the characters HTML
	// escaping would turn into \u003c and the like.
	for i, secret := range []string{`hun"ter\2`, `x"<y&z>`} {
		res2 := f.SubmitAsync(context.Background(), f.Request("change", map[string]any{"file": "b", "token": secret}))
		id2 := f.WaitStatus(queue.ID(2+i), queue.Pending).ID
		rule2, err := f.Queue.Narrowest(id2)
		if err != nil {
			t.Fatal(err)
		}
		if err := f.Queue.ApproveRemember(id2, rule2, true); err == nil || !strings.Contains(err.Error(), "secret parameter") {
			t.Errorf("always with the secret value %q: %v", secret, err)
		}
		if err := f.Queue.Deny(id2, ""); err != nil {
			t.Fatal(err)
		}
		<-res2
	}
	if c, _ := f.Queue.Call(id); c.Status != queue.Pending {
		t.Fatalf("the refused remember settled the call: %s", c.Status)
	}
	wide, err := rule.WidenArg("token", "*")
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Queue.ApproveRemember(id, wide, true); err != nil {
		t.Fatal(err)
	}
	if r := <-res; r.Out.Call.Status != queue.Done {
		t.Fatalf("call %+v", r.Out.Call)
	}
	data, err := os.ReadFile(filepath.Join(f.State, "remembered.json"))
	if err != nil || strings.Contains(string(data), "s3cr3t-token") || !strings.Contains(string(data), `"token"`) {
		t.Fatalf("remembered file %q (%v)", data, err)
	}
}

func TestSubmit_RefusedSecretNumberIsNotJournaled(t *testing.T) {
	f := newFixture(t, nil)
	for _, pin := range []any{271828.0, json.Number("271828"), "271828"} {
		_, err := f.Queue.Submit(context.Background(), f.Request("unlock", map[string]any{"pin": pin}))
		if err == nil || strings.Contains(err.Error(), "271828") {
			t.Fatalf("refusal %v repeats the secret", err)
		}
	}
	data, err := os.ReadFile(f.Journal.Path())
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

// A rule an operator widened must still cover the call it was made from:
// widening a list parameter to one item's value would save a rule that
// does not allow the call just approved.
func TestApproveRemember_RuleMustCoverTheCall(t *testing.T) {
	f := queuetest.New(t, queuetest.Options{Tools: `[{"name": "say", "command": "echo -- {words...}"}]`})
	f.Runner.Expect("echo", "--", "hello", "there")
	res := f.SubmitAsync(context.Background(), f.Request("say", map[string]any{"words": []any{"hello", "there"}}))
	c := f.WaitPending()
	rule, err := f.Queue.Narrowest(c.ID)
	if err != nil {
		t.Fatal(err)
	}
	narrow, err := rule.WidenArg("words", "hello")
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Queue.ApproveRemember(c.ID, narrow, false); err == nil || !strings.Contains(err.Error(), "does not cover this call") {
		t.Fatalf("a rule that does not cover the call: %v", err)
	}
	if got, _ := f.Queue.Call(c.ID); got.Status != queue.Pending {
		t.Fatalf("the refused rule settled the call: %s", got.Status)
	}
	wide, err := rule.WidenArg("words", "*")
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Queue.ApproveRemember(c.ID, wide, false); err != nil {
		t.Fatal(err)
	}
	if r := <-res; r.Out.Call.Status != queue.Done {
		t.Fatalf("call %+v", r.Out.Call)
	}
}

// An edited argv is held to the limits an expanded one is: an oversize
// edit is refused with the limit named, not started to fail with E2BIG.
func TestApproveEdited_Limits(t *testing.T) {
	f := newFixture(t, nil)
	res := f.SubmitAsync(context.Background(), f.Request("write", map[string]any{"file": "a"}))
	c := f.WaitPending()
	huge := strings.Repeat("x", 200<<10)
	if err := f.Queue.ApproveEdited(c.ID, []string{"touch", "--", huge}, ""); err == nil || !strings.Contains(err.Error(), "over the limit of 131071 bytes per argument") {
		t.Fatalf("an oversize edit: %v", err)
	}
	if err := f.Queue.Deny(c.ID, ""); err != nil {
		t.Fatal(err)
	}
	<-res
}

// A call with secret values cannot be edited: its secrets are masked
// wherever it is shown, so an edit could not be reviewed for them, and
// the journal could not tell them from what the operator typed.
func TestApproveEdited_RefusesCallsWithSecrets(t *testing.T) {
	f := newFixture(t, nil)
	res := f.SubmitAsync(context.Background(), f.Request("change", map[string]any{"file": "a", "token": "s3cr3t-token"}))
	c := f.WaitPending()
	if err := f.Queue.ApproveEdited(c.ID, []string{"touch", "--", "b"}, ""); err == nil || !strings.Contains(err.Error(), "secret values cannot be edited") {
		t.Fatalf("an edit of a call with secrets: %v", err)
	}
	if err := f.Queue.Deny(c.ID, ""); err != nil {
		t.Fatal(err)
	}
	<-res
}

// Secrets are masked by position in the journal: only the words a secret
// parameter filled hold a token; a value the agent repeated in another
// argument stays as it is, and a one-letter secret erases nothing else.
func TestJournal_SecretsMaskedByPosition(t *testing.T) {
	f := queuetest.New(t, queuetest.Options{Tools: `[{"name": "hdr", "command": "echo -H {token} -- {url}",
	  "params": {"token": {"secret": true}}}]`})
	for _, tc := range []struct{ token, url string }{
		{"evil.example.net", "https://evil.example.net/exfil"},
		{"e", "https://example.net/e"},
	} {
		res := f.SubmitAsync(context.Background(), f.Request("hdr", map[string]any{"token": tc.token, "url": tc.url}))
		c := f.WaitPending()
		if err := f.Queue.Deny(c.ID, ""); err != nil {
			t.Fatal(err)
		}
		<-res
		tok, err := f.Journal.Token(tc.token)
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range f.Records(c.ID) {
			if r.Argv != nil && !slices.Equal(r.Argv, []string{"echo", "-H", tok, "--", tc.url}) {
				t.Errorf("token %q: %s record argv %q", tc.token, r.Event, r.Argv)
			}
			if r.Args != nil && (r.Args["token"] != tok || r.Args["url"] != tc.url) {
				t.Errorf("token %q: %s record args %v", tc.token, r.Event, r.Args)
			}
		}
	}
}

// A call whose context ends just as it is to start was cancelled, by its
// client or by shutdown, not "not started" as if its program were missing.
func TestRun_CancelledAtStartIsACancellation(t *testing.T) {
	f := newFixture(t, func(o *queue.Options) { o.Runner = exec.NewLocal(exec.Options{}) })
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	out, err := f.Queue.Submit(ctx, f.Request("look", map[string]any{"what": "x"}))
	if err != nil {
		t.Fatal(err)
	}
	if c := out.Call; c.Ending != queue.CancelledByClient {
		t.Fatalf("ending %q (%s), want cancelled by the client", c.Ending, c.EndingText())
	}
}

func TestSubmit_WaitingIsSlow(t *testing.T) {
	// A call that waits for an operator gives its caller's slow notice as
	// it starts to wait; one a rule runs at once leaves the notice to its
	// run (the fake runner gives none for a run it does not hold).
	f := newFixture(t, nil)
	var given atomic.Int32
	slow := func() context.Context {
		given.Store(0)
		return exec.WithSlow(context.Background(), exec.NewSlow(time.Hour, func() { given.Add(1) }))
	}
	f.Runner.Expect("uname", "x")
	if out, err := f.Queue.Submit(slow(), f.Request("look", map[string]any{"what": "x"})); err != nil || out.Call.Status != queue.Done {
		t.Fatalf("%+v, %v", out.Call, err)
	}
	if n := given.Load(); n != 0 {
		t.Fatalf("a call run at once gave %d notices", n)
	}
	res := f.SubmitAsync(slow(), f.Request("write", map[string]any{"file": "a"}))
	id := f.WaitStatus(2, queue.Pending).ID
	if n := given.Load(); n != 1 {
		t.Fatalf("a call waiting for an operator gave %d notices", n)
	}
	if err := f.Queue.Deny(id, "no"); err != nil {
		t.Fatal(err)
	}
	if r := <-res; r.Err != nil || r.Out.Call.Status != queue.Denied {
		t.Fatalf("%+v, %v", r.Out.Call, r.Err)
	}
}
