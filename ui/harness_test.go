package ui

import (
	"fmt"
	"reflect"
	"strings"
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
	raw   []string // sequences written to the terminal, the bell included
	clips []string // texts put on the clipboard
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
		h.raw = append(h.raw, fmt.Sprint(msg.Msg))
		if msg.Msg == "\a" {
			h.bells++
		}
	case tea.QuitMsg:
		h.quit = true
	default:
		// tea.SetClipboard's message is unexported: it is a string whose
		// type is named so.
		if v := reflect.ValueOf(msg); v.Kind() == reflect.String && reflect.TypeOf(msg).Name() == "setClipboardMsg" {
			h.clips = append(h.clips, v.String())
			return
		}
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
	"pgdn":   {Code: tea.KeyPgDown},
	"tab":    {Code: tea.KeyTab},
	"home":   {Code: tea.KeyHome},
	"end":    {Code: tea.KeyEnd},
	"ctrl+s": {Code: 's', Mod: tea.ModCtrl},
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

// sizedHarness is a console over a fresh fixture, at w×h.
func sizedHarness(t *testing.T, w, h int, change func(o *Options)) *harness {
	t.Helper()
	hs := newHarness(t, newFixture(t, nil), change)
	hs.send(tea.WindowSizeMsg{Width: w, Height: h})
	return hs
}

// expectScreen fails unless the screen holds every text of want and none
// of notWant.
func (h *harness) expectScreen(want, notWant []string) {
	h.t.Helper()
	scr := h.screen()
	for _, w := range want {
		if !strings.Contains(scr, w) {
			h.t.Errorf("screen lacks %q:\n%s", w, scr)
		}
	}
	for _, no := range notWant {
		if strings.Contains(scr, no) {
			h.t.Errorf("screen shows %q:\n%s", no, scr)
		}
	}
}
