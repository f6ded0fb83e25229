package ui

import (
	"regexp"
	"strings"
	"testing"
	"unicode"

	tea "charm.land/bubbletea/v2"

	"github.com/assent-sh/assent/exec"
	"github.com/assent-sh/assent/policy"
	"github.com/assent-sh/assent/queue"
	"github.com/assent-sh/assent/queue/queuetest"
)

// hostile holds what an agent, a client or a child could write to take
// over an approval prompt: cursor moves and screen clears, a clipboard
// write (OSC 52), a link (OSC 8), a title set, a carriage return that
// would draw over text, bidi overrides, zero-width and C1 characters.
const hostile = "A\x1b[2J\x1b[H\x1b]52;c;cm0gLXJmIH4=\x07\x1b]8;;https://evil.example\x1b\\click\x1b]8;;\x1b\\" +
	"\x1b]0;title\x07\rB\u202eC\u2066D\u200bE\u200dF\ufeffG\u0085H\u061cI\x9b31m"

// sgr matches the styling sequences lipgloss writes, the only escapes a
// coloured screen may hold.
var sgr = regexp.MustCompile(`\x1b\[[0-9;:]*m`)

// checkDrawnSafely fails when the screen holds anything but printable
// text, newlines and (when styled) SGR styling. Without colour the screen
// is only text, except for the reverse-video cursor of an open input.
func checkDrawnSafely(t *testing.T, screen string, styled bool) {
	t.Helper()
	if styled {
		screen = sgr.ReplaceAllString(screen, "")
	}
	for i, r := range screen {
		if r == '\n' {
			continue
		}
		if r < 0x20 || r == 0x7f || (r >= 0x80 && r <= 0x9f) || unicode.Is(unicode.Cf, r) ||
			r == 0x2028 || r == 0x2029 || r == unicode.ReplacementChar {
			t.Fatalf("raw %U at byte %d reaches the terminal: %q", r, i, screen[max(0, i-40):min(len(screen), i+40)])
		}
	}
}

// TestHostile_DisplayedEscaped sends hostile text through every field the
// console draws and checks it arrives as visible escapes only.
func TestHostile_DisplayedEscaped(t *testing.T) {
	for _, coloured := range []bool{false, true} {
		name := map[bool]string{false: "no colour", true: "colour"}[coloured]
		t.Run(name+"/through the queue", func(t *testing.T) {
			f := newFixture(t, nil)
			edited := []string{"grep", "-rn", "--", "\x1b[2K\u202eTODO\r", "/usr/share"}
			f.Runner.Expect(edited...).Stdout(hostile + "\n" + hostile)
			h := newHarness(t, f, func(o *Options) { o.NoColor = !coloured })
			tl := f.Config().Tool("grep_search")
			ch := make(chan queuetest.Submitted, 1)
			go func() {
				out, err := f.Queue.Submit(t.Context(), queue.Request{Tool: tl, Args: grepArgs, Client: "claude" + hostile})
				ch <- queuetest.Submitted{Out: out, Err: err}
			}()
			id := h.until(func(ev queue.Event) bool { return ev.Kind == queue.EventPending }).Call.ID
			checkDrawnSafely(t, h.screen(), coloured)
			h.pastGrace()
			// The operator may type invisible characters as escapes; the
			// edit runs them, and the console still shows them escaped.
			h.press("e", "ctrl+u", `grep -rn -- $'\x1b[2K\u202eTODO\r' /usr/share`, "enter")
			checkDrawnSafely(t, h.screen(), true)
			h.press("enter")
			f.result(ch)
			h.untilStatus(id, queue.Done)
			scr := h.screen()
			checkDrawnSafely(t, scr, coloured)
			for _, want := range []string{`$'\x1b[2K\u202eTODO\r'`, `A\x1b[2J\x1b[H\x1b]52;c;`, `\u202eC\u2066D\u200bE`, `\x9b31m`} {
				if !strings.Contains(sgr.ReplaceAllString(scr, ""), want) {
					t.Errorf("screen lacks the escaped %q:\n%s", want, scr)
				}
			}
			h.send(tea.WindowSizeMsg{Width: 200, Height: 60})
			checkDrawnSafely(t, h.screen(), coloured)
		})
		t.Run(name+"/every field of a call", func(t *testing.T) {
			f := newFixture(t, nil)
			h := newHarness(t, f, func(o *Options) { o.NoColor = !coloured; o.Endpoint = "http://x/" + hostile })
			c := queue.Call{ID: 7, Tool: "tool" + hostile, Client: hostile, Status: queue.Pending,
				Args:   map[string]any{"x" + hostile: hostile},
				Values: map[string][]string{"p" + hostile: {hostile}},
				Command: exec.Command{Path: "/usr/bin/" + hostile, Argv: []string{hostile, hostile, "-" + hostile},
					Dir: "/" + hostile, Env: []string{"K=" + hostile}, Stdin: hostile},
				Decision: policy.Decision{Action: policy.Ask, Rule: "r" + hostile, Reason: hostile}}
			h.send(eventMsg{ev: queue.Event{Kind: queue.EventPending, Call: c}})
			h.send(eventMsg{ev: queue.Event{Kind: queue.EventOutput, Call: c,
				Output: &exec.Chunk{Stream: exec.Stderr, Data: []byte(hostile)}}})
			checkDrawnSafely(t, h.screen(), coloured)
			h.pastGrace()
			for _, keys := range [][]string{{"d", "\x1b\u202e"}, {"?"}, {"c"}, {"q"}} {
				h.press(keys...)
				h.send(tea.PasteMsg{Content: hostile})
				checkDrawnSafely(t, h.screen(), true)
				h.press("esc")
			}
			c.Status, c.Decider, c.Reason = queue.Refused, queue.ByValidation, hostile
			c.Command = exec.Command{}
			h.send(eventMsg{ev: queue.Event{Kind: queue.EventDecided, Call: c}})
			h.send(statusMsg{err: errString(hostile)})
			checkDrawnSafely(t, h.screen(), coloured)
			h.send(fatalMsg{errString(hostile)})
			checkDrawnSafely(t, h.screen(), coloured)
		})
	}
}

type errString string

func (e errString) Error() string { return string(e) }
