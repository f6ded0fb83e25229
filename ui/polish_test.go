package ui

import (
	"fmt"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/assent-sh/assent/exec"
	"github.com/assent-sh/assent/queue"
)

// TestView_TooSmallNoticeWhole shows every word of the too-small notice
// however narrow the terminal.
func TestView_TooSmallNoticeWhole(t *testing.T) {
	for _, size := range [][2]int{{59, 11}, {40, 10}, {20, 6}} {
		t.Run(fmt.Sprintf("%dx%d", size[0], size[1]), func(t *testing.T) {
			h := sizedHarness(t, size[0], size[1], nil)
			text := strings.Join(strings.Fields(h.screen()), " ")
			if want := "assent needs a terminal of at least 60×12"; !strings.Contains(text, want) {
				t.Errorf("the notice is cut: %q", text)
			}
		})
	}
}

// TestHelp_ClearOfTheBorder keeps a blank cell between the help text and
// both edges of its box.
func TestHelp_ClearOfTheBorder(t *testing.T) {
	for _, size := range goldenSizes {
		t.Run(fmt.Sprintf("%dx%d", size[0], size[1]), func(t *testing.T) {
			h := sizedHarness(t, size[0], size[1], nil)
			h.press("?")
			lines := strings.Split(h.screen(), "\n")
			inBox, left, dw := false, 0, dialogWidth(size[0])
			for _, l := range lines {
				r := []rune(l)
				if x := strings.Index(l, "┌ help"); x >= 0 {
					inBox, left = true, len([]rune(l[:x]))
					continue
				}
				if !inBox {
					continue
				}
				if r[left] == '└' {
					break
				}
				if r[left+1] != ' ' || r[left+dw-2] != ' ' {
					t.Errorf("help text touches its border: %q", string(r[left:left+dw]))
				}
			}
			if !inBox {
				t.Fatalf("no help box:\n%s", h.screen())
			}
		})
	}
}

// TestGrammar_Counts says "1 call", "1 line", never "1 call(s)".
func TestGrammar_Counts(t *testing.T) {
	f := newFixture(t, nil)
	run := f.Runner.Expect("uname", "kernel").Stdout("one line\n")
	run.Hold = make(chan struct{})
	h := newHarness(t, f, nil)
	running := f.submit("look", map[string]any{"what": "kernel"})
	h.until(func(ev queue.Event) bool { return ev.Kind == queue.EventOutput })
	h.pending("grep_search", grepArgs)
	h.pastGrace()
	h.press("down")
	if scr := h.screen(); !strings.Contains(scr, "output · 1 line ") {
		t.Errorf("the output title does not say 1 line:\n%s", scr)
	}
	h.press("q")
	scr := h.screen()
	for _, want := range []string{"1 call waits for you", "1 call runs: it will be killed"} {
		if !strings.Contains(scr, want) {
			t.Errorf("quit dialog lacks %q:\n%s", want, scr)
		}
	}
	if strings.Contains(scr, "(s)") {
		t.Errorf("quit dialog counts with (s):\n%s", scr)
	}
	h.press("esc")
	close(run.Hold)
	f.result(running)
}

// TestFilter_MatchesWhatRowsSay finds a call by the words its row shows:
// "edited" and "replay" included.
func TestFilter_MatchesWhatRowsSay(t *testing.T) {
	f := newFixture(t, nil)
	h := newHarness(t, f, nil)
	cmd := exec.Command{Path: "/usr/bin/grep", Argv: []string{"grep", "x"}}
	h.send(eventMsg{ev: queue.Event{Kind: queue.EventDecided, Call: queue.Call{ID: 1, Tool: "grep_search",
		Status: queue.Done, Ending: queue.Exited, Decider: queue.ByOperator, Command: cmd, Original: &cmd,
		Result: &exec.Result{}}}})
	h.send(eventMsg{ev: queue.Event{Kind: queue.EventPending, Call: queue.Call{ID: 2, Tool: "look",
		Status: queue.Pending, Origin: "replay", Command: cmd}}})
	h.send(eventMsg{ev: queue.Event{Kind: queue.EventPending, Call: queue.Call{ID: 3, Tool: "look",
		Status: queue.Pending, Command: cmd}}})
	h.pastGrace()
	for filter, want := range map[string]queue.ID{"edited": 1, "replay": 2} {
		h.press("/", filter)
		if len(h.m.calls.shown) != 1 || h.m.calls.shown[0].call.ID != want {
			t.Errorf("filter %q shows %d calls, want only %s:\n%s", filter, len(h.m.calls.shown), want, h.screen())
		}
		h.press("esc")
	}
}

// TestReplay_Marked marks a replayed call in the list and the detail.
func TestReplay_Marked(t *testing.T) {
	for _, size := range goldenSizes {
		t.Run(fmt.Sprintf("%dx%d", size[0], size[1]), func(t *testing.T) {
			h := sizedHarness(t, size[0], size[1], nil)
			h.send(eventMsg{ev: queue.Event{Kind: queue.EventPending, Call: queue.Call{ID: 4, Tool: "grep_search",
				Client: "claude-code", Status: queue.Pending, Origin: "replay",
				Command: exec.Command{Path: "/usr/bin/grep", Argv: []string{"grep", "x"}}}}})
			lines := strings.Split(h.screen(), "\n")
			row := ansi.Cut(lines[2], 0, h.m.listWidth())
			if !strings.Contains(row, "#4 replay") {
				t.Errorf("the list row does not say replay: %q", row)
			}
			if !strings.Contains(lines[1], "replay") || !strings.Contains(h.screen(), "replay: a journaled call") {
				t.Errorf("the detail does not say replay:\n%s", h.screen())
			}
		})
	}
}
