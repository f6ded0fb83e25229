package ui

import (
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/assent-sh/assent/queue"
	"github.com/assent-sh/assent/queue/queuetest"
)

// harness drives a Model by calling Update directly: queue events come
// from a real subscription, and commands are run at once, their messages
// fed back, as a program would.
type harness struct {
	t     *testing.T
	f     *fixture
	m     Model
	sub   *queue.Subscription
	now   *clock
	bells int
	quit  bool
}

func newHarness(t *testing.T, f *fixture, change func(o *Options)) *harness {
	t.Helper()
	o := Options{Queue: f.Queue, Endpoint: "http://127.0.0.1:7323/mcp", Token: testToken, NoColor: true}
	if change != nil {
		change(&o)
	}
	h := &harness{t: t, f: f, m: New(o), now: newClock(0)}
	h.m.now = h.now.Now
	h.m.after = func(time.Duration, tea.Msg) tea.Cmd { return nil }
	h.sub = f.Queue.Subscribe()
	t.Cleanup(h.sub.Close)
	h.send(snapshotMsg{h.sub.Snapshot(), f.Queue.JournalError()})
	return h
}

// send updates the model with msg and runs the commands it returns.
func (h *harness) send(msg tea.Msg) {
	h.t.Helper()
	next, cmd := h.m.Update(msg)
	h.m = next.(Model)
	h.run(cmd)
}

func (h *harness) run(cmd tea.Cmd) {
	h.t.Helper()
	if cmd == nil {
		return
	}
	switch msg := cmd().(type) {
	case nil:
	case tea.BatchMsg:
		for _, c := range msg {
			h.run(c)
		}
	case tea.RawMsg:
		if msg.Msg == "\a" {
			h.bells++
		}
	case tea.QuitMsg:
		h.quit = true
	default:
		h.send(msg)
	}
}

// press sends keys: a name such as "enter" or "esc", or text typed one
// rune at a time.
func (h *harness) press(keys ...string) {
	h.t.Helper()
	for _, k := range keys {
		if msg, ok := namedKeys[k]; ok {
			h.send(msg)
			continue
		}
		for _, r := range k {
			h.send(tea.KeyPressMsg{Code: r, Text: string(r)})
		}
	}
}

var namedKeys = map[string]tea.KeyPressMsg{
	"enter":  {Code: tea.KeyEnter},
	"esc":    {Code: tea.KeyEscape},
	"up":     {Code: tea.KeyUp},
	"down":   {Code: tea.KeyDown},
	"pgup":   {Code: tea.KeyPgUp},
	"ctrl+c": {Code: 'c', Mod: tea.ModCtrl},
	"ctrl+u": {Code: 'u', Mod: tea.ModCtrl},
	"bksp":   {Code: tea.KeyBackspace},
}

// until feeds the model queue events until one satisfies done.
func (h *harness) until(done func(ev queue.Event) bool) queue.Event {
	h.t.Helper()
	timeout := time.After(10 * time.Second)
	for {
		select {
		case ev := <-h.sub.Events():
			h.send(eventMsg{ev, h.f.Queue.JournalError()})
			if done(ev) {
				return ev
			}
		case <-timeout:
			h.t.Fatal("the awaited queue event never came")
			return queue.Event{}
		}
	}
}

// untilStatus feeds events until call id has status s.
func (h *harness) untilStatus(id queue.ID, s queue.Status) queue.Event {
	h.t.Helper()
	return h.until(func(ev queue.Event) bool {
		return ev.Call.ID == id && ev.Kind != queue.EventOutput && ev.Call.Status == s
	})
}

// pending submits a call and feeds events until it waits for the operator.
func (h *harness) pending(tool string, args map[string]any) (queue.ID, <-chan queuetest.Submitted) {
	h.t.Helper()
	ch := h.f.submit(tool, args)
	ev := h.until(func(ev queue.Event) bool { return ev.Kind == queue.EventPending })
	return ev.Call.ID, ch
}

// pastGrace moves the console's clock beyond the grace period.
func (h *harness) pastGrace() { h.now.Add(time.Second) }

// screen is the rendered view; with NoColor it is plain text.
func (h *harness) screen() string { return h.m.View().Content }
