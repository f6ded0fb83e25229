package ui

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/colorprofile"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/golden"
	"github.com/charmbracelet/x/exp/teatest/v2"

	"github.com/assent-sh/assent/queue"
)

// peek runs fn on the model inside the program's loop, after every
// message sent before it: a race-free look at a running console.
type peek struct {
	fn   func(Model)
	done chan struct{}
}

func peekFilter(m tea.Model, msg tea.Msg) tea.Msg {
	if p, ok := msg.(peek); ok {
		p.fn(m.(Model))
		close(p.done)
		return nil
	}
	return msg
}

// console is a whole program under teatest, fed by the real feeder.
type console struct {
	t  *testing.T
	f  *fixture
	tm *teatest.TestModel
}

func startConsole(t *testing.T, f *fixture, w, h int) *console {
	t.Helper()
	m := New(Options{Queue: f.Queue, Endpoint: "http://127.0.0.1:7323/mcp", Token: testToken, Grace: -1})
	clk := newClock(0)
	clk.Add(time.Minute)
	m.now = clk.Now
	// No timers: status lines stay until replaced, so screens are stable.
	m.after = func(time.Duration, tea.Msg) tea.Cmd { return nil }
	tm := teatest.NewTestModel(t, m, teatest.WithInitialTermSize(w, h),
		teatest.WithProgramOptions(tea.WithFilter(peekFilter), tea.WithColorProfile(colorprofile.Ascii)))
	stop := startFeeder(context.Background(), f.Queue, nil, tm.Send)
	c := &console{t: t, f: f, tm: tm}
	t.Cleanup(func() {
		_ = tm.Quit()
		tm.WaitFinished(t, teatest.WithFinalTimeout(10*time.Second))
		stop()
	})
	return c
}

// look runs fn on the current model.
func (c *console) look(fn func(Model)) {
	c.t.Helper()
	p := peek{fn, make(chan struct{})}
	c.tm.Send(p)
	select {
	case <-p.done:
	case <-time.After(10 * time.Second):
		c.t.Fatal("the console did not answer")
	}
}

// waitFor polls the model until cond holds.
func (c *console) waitFor(what string, cond func(m Model) bool) {
	c.t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		ok := false
		c.look(func(m Model) { ok = cond(m) })
		if ok {
			return
		}
		if time.Now().After(deadline) {
			c.t.Fatalf("the console never showed %s:\n%s", what, c.screen())
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// waitScreen polls until the screen contains text.
func (c *console) waitScreen(text string) {
	c.t.Helper()
	c.waitFor(fmt.Sprintf("%q", text), func(m Model) bool { return strings.Contains(ansi.Strip(m.View().Content), text) })
}

func (c *console) screen() string {
	var s string
	c.look(func(m Model) { s = ansi.Strip(m.View().Content) })
	return s
}

// keys types keys: names ("enter") or text.
func (c *console) keys(keys ...string) {
	for _, k := range keys {
		if msg, ok := namedKeys[k]; ok {
			c.tm.Send(msg)
			continue
		}
		c.tm.Type(k)
	}
}

func TestFlow_ApproveOutputDone(t *testing.T) {
	for _, size := range goldenSizes {
		t.Run(fmt.Sprintf("%dx%d", size[0], size[1]), func(t *testing.T) {
			f := newFixture(t, nil)
			run := f.Runner.Expect("grep", "-rn", "--", "TODO", "/usr/share")
			run.Stdout("/usr/share/doc/a.txt:12:TODO: write the manual\n").Stdout("/usr/share/doc/b.txt:7:TODO: and the tests\n")
			hold := make(chan struct{})
			run.Hold = hold
			c := startConsole(t, f, size[0], size[1])
			ch := f.submit("grep_search", grepArgs)
			c.waitScreen("asks: no rule matched")
			c.keys("a")
			c.waitScreen("b.txt:7:TODO: and the tests")
			c.waitScreen("» running")
			close(hold)
			if s := f.result(ch); s.Out.Call.Status != queue.Done || s.Out.Call.Result.ExitCode != 0 {
				t.Fatalf("call ended %+v", s.Out.Call)
			}
			c.waitScreen("exit 0 · ")
			c.waitScreen("approved #1")
			golden.RequireEqual(t, c.screen())
		})
	}
}

func TestFlow_DenyWithReason(t *testing.T) {
	f := newFixture(t, nil)
	c := startConsole(t, f, 80, 24)
	ch := f.submit("grep_search", grepArgs)
	c.waitScreen("● pending")
	c.keys("d")
	c.waitScreen("The agent receives this reason")
	c.keys("use the index", "enter")
	s := f.result(ch)
	if s.Out.Call.Status != queue.Denied || s.Out.Call.Reason != "use the index" {
		t.Fatalf("call ended %s with %q", s.Out.Call.Status, s.Out.Call.Reason)
	}
	c.waitScreen("denied by the operator: use the index")
}

func TestFlow_Edit(t *testing.T) {
	f := newFixture(t, nil)
	f.Runner.Expect("grep", "-rn", "--", "FIXME", "/usr/share").Stdout("found\n")
	c := startConsole(t, f, 80, 24)
	ch := f.submit("grep_search", grepArgs)
	c.waitScreen("● pending")
	c.keys("e", "ctrl+u", "grep -rn -- FIXME /usr/share", "enter")
	c.waitScreen("+ FIXME")
	c.keys("enter")
	s := f.result(ch)
	if ran := f.Runner.Ran(); len(ran) != 1 || ran[0].Argv[3] != "FIXME" || s.Out.Call.Original == nil {
		t.Fatalf("runner got %v; original %v", ran, s.Out.Call.Original)
	}
	c.waitScreen("approved by the operator, edited")
}

func TestFlow_AlwaysAllow(t *testing.T) {
	f := newFixture(t, nil)
	f.Runner.Expect("grep", "-rn", "--", "TODO", "/usr/share").Stdout("found\n")
	f.Runner.Expect("grep", "-rn", "--", "TODO", "/usr/lib").Stdout("found too\n")
	c := startConsole(t, f, 120, 40)
	ch := f.submit("grep_search", grepArgs)
	c.waitScreen("● pending")
	c.keys("A")
	c.waitScreen("save this rule")
	c.keys("w", "ctrl+u", "/usr/*", "enter")
	c.waitScreen(`"path":"/usr/*"`)
	c.keys("enter")
	f.result(ch)
	c.waitScreen("and saved the rule") // the rule is written after the approval
	data, err := os.ReadFile(filepath.Join(f.State, "remembered.json"))
	if err != nil || !strings.Contains(string(data), `"/usr/*"`) {
		t.Fatalf("remembered rules (%v):\n%s", err, data)
	}
	// The widened rule now approves a call under another directory.
	again := f.result(f.submit("grep_search", map[string]any{"pattern": "TODO", "path": "/usr/lib"}))
	if again.Out.Call.Decider != queue.ByRule || again.Out.Call.Status != queue.Done {
		t.Errorf("second call ended %s by %s", again.Out.Call.Status, again.Out.Call.Decider)
	}
}

func TestFlow_QuitWithPending(t *testing.T) {
	f := newFixture(t, nil)
	c := startConsole(t, f, 80, 24)
	ch := f.submit("grep_search", grepArgs)
	c.waitScreen("● pending")
	c.keys("q")
	c.waitScreen("quit assent?")
	c.keys("y")
	c.tm.WaitFinished(t, teatest.WithFinalTimeout(10*time.Second))
	if s := f.result(ch); s.Out.Call.Status != queue.Denied || s.Out.Call.Reason != closeReason {
		t.Fatalf("pending call ended %s with %q", s.Out.Call.Status, s.Out.Call.Reason)
	}
	fm := c.tm.FinalModel(t).(Model)
	if !fm.quitting || fm.closeErr != nil {
		t.Errorf("final model quitting %v, close error %v", fm.quitting, fm.closeErr)
	}
}
