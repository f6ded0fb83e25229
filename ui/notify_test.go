package ui

import (
	"strings"
	"testing"

	"github.com/assent-sh/assent/queue"
)

// TestNotify_WhenACallWaits sends the bell and a notification the terminal
// shows when a call starts waiting, each unless turned off.
func TestNotify_WhenACallWaits(t *testing.T) {
	const osc9 = "\x1b]9;#1 grep_search waits for approval (claude-code)\a"
	tests := []struct {
		name    string
		opts    func(o *Options)
		bells   int
		notices int
	}{
		{"both by default", nil, 1, 1},
		{"no notification", func(o *Options) { o.NoNotify = true }, 1, 0},
		{"no bell", func(o *Options) { o.NoBell = true }, 0, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFixture(t, nil)
			h := newHarness(t, f, tt.opts)
			h.pending("grep_search", grepArgs)
			notices := 0
			for _, r := range h.raw {
				if r == osc9 {
					notices++
				}
			}
			if h.bells != tt.bells || notices != tt.notices {
				t.Errorf("bells %d, notifications %d (%q); want %d and %d", h.bells, notices, h.raw, tt.bells, tt.notices)
			}
		})
	}
}

// TestNotify_TextCannotEndTheSequence escapes what the agent chose (the
// tool and client names) so that nothing in it ends the notification or
// starts another sequence.
func TestNotify_TextCannotEndTheSequence(t *testing.T) {
	f := newFixture(t, nil)
	h := newHarness(t, f, nil)
	h.send(eventMsg{ev: queue.Event{Kind: queue.EventPending, Call: queue.Call{ID: 3, Tool: "grep",
		Client: "x\a\x1b]52;c;aGk=\a\x1b\\", Status: queue.Pending}}})
	var seq string
	for _, r := range h.raw {
		if strings.HasPrefix(r, "\x1b]9;") {
			seq = r
		}
	}
	body := strings.TrimSuffix(strings.TrimPrefix(seq, "\x1b]9;"), "\a")
	if seq == "" || strings.ContainsAny(body, "\a\x1b") || !strings.Contains(body, `x\x07\x1b]52;c;aGk=`) {
		t.Errorf("notification %q", seq)
	}
}

// TestNotifierFor chooses the sequence from the terminal's environment.
func TestNotifierFor(t *testing.T) {
	tests := []struct {
		env  map[string]string
		want notifier
		seq  string
	}{
		{map[string]string{"TERM": "xterm-256color", "TERM_PROGRAM": "iTerm.app"}, notifier{kind: notifyOSC9}, "\x1b]9;hi\a"},
		{map[string]string{"TERM": "xterm-kitty"}, notifier{kind: notifyOSC9}, "\x1b]9;hi\a"},
		{map[string]string{"TERM": "xterm-256color", "VTE_VERSION": "7600"}, notifier{kind: notifyOSC777}, "\x1b]777;notify;assent;hi\a"},
		{map[string]string{"TERM": "rxvt-unicode-256color"}, notifier{kind: notifyOSC777}, "\x1b]777;notify;assent;hi\a"},
		{map[string]string{"TERM": "foot"}, notifier{kind: notifyOSC777}, "\x1b]777;notify;assent;hi\a"},
		{map[string]string{"TERM": "linux"}, notifier{}, ""},
		{map[string]string{"TERM": "dumb"}, notifier{}, ""},
		{map[string]string{}, notifier{}, ""},
		{map[string]string{"TERM": "screen-256color"}, notifier{}, ""},
		{map[string]string{"TERM": "tmux-256color", "TERM_PROGRAM": "tmux", "TMUX": "/tmp/tmux-0/default,1,0"},
			notifier{kind: notifyOSC9, inTmux: true}, "\x1bPtmux;\x1b\x1b]9;hi\a\x1b\\"},
		{map[string]string{"TERM": "screen-256color", "TMUX": "/tmp/tmux-0/default,1,0", "VTE_VERSION": "7600"},
			notifier{kind: notifyOSC777, inTmux: true}, "\x1bPtmux;\x1b\x1b]777;notify;assent;hi\a\x1b\\"},
	}
	for _, tt := range tests {
		got := notifierFor(func(k string) string { return tt.env[k] })
		if got != tt.want || got.sequence("hi") != tt.seq {
			t.Errorf("%v: %+v %q, want %+v %q", tt.env, got, got.sequence("hi"), tt.want, tt.seq)
		}
	}
}
